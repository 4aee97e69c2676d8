// The machine's Chromium, as the console's end-to-end tests and the passkey tests launch it:
// Debian's package (Playwright's own download cannot work here), headless, with a fresh profile.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
