// The package's version, read from its package.json (one folder above dist/ and src/).
import { readFileSync } from 'node:fs';

export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
