// One Chromium for the whole console run (jest.console.config.js's globalSetup and globalTeardown):
// each test file opens a fresh context in it (its own cookies and storage) instead of starting a
// browser, 1 to 3 s a file here against under one for a context (src/console/harness.ts). Plain
// JavaScript: Jest loads a global setup outside its module mapping; Node runs the TypeScript import.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../shared/src/test/chromium.ts';

/** Where the harness finds the shared browser; unset when the run has none. */
export const SHARED_CHROMIUM_ENV = 'INTAKE_CONSOLE_CHROMIUM_WS';

let server;

export async function startSharedChromium() {
  if (!existsSync(CHROMIUM_PATH)) {
    return; // the harness reports the missing browser per file (and fails under CI=true)
  }
  server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  // Jest's workers are started after the global setup and inherit its environment.
  process.env[SHARED_CHROMIUM_ENV] = server.wsEndpoint();
}

export async function stopSharedChromium() {
  delete process.env[SHARED_CHROMIUM_ENV];
  await server?.close();
  server = undefined;
}
