// Loaded first in each test worker (`--import`): Node module hooks that run the workspaces'
// TypeScript through SWC, with decorator metadata for type-graphql, as the build does; resolve
// workspace packages to their sources (the "@intake/source" condition of their exports), so tests
// need no build; give `@jest/globals` the runner's globals; and find `./name.ts` for `./name.js` and
// `./name`. Compiled files are kept by content hash in node_modules/.cache, so the run's workers do
// not each compile the sources again.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from '@swc/core';

export const REGISTER_OPTION = `--import=${fileURLToPath(import.meta.url)}`;

// The processes a test starts (the CLI, the services) run as anywhere else: without the hooks.
process.env.NODE_OPTIONS = (process.env.NODE_OPTIONS ?? '')
  .split(' ')
  .filter((option) => option !== '' && option !== REGISTER_OPTION)
  .join(' ');
// Stack traces name the TypeScript lines.
process.setSourceMapsEnabled(true);

const GLOBALS = new URL('./jest-globals.js', import.meta.url).href;
const SOURCE_CONDITION = '@intake/source';
const SWC_OPTIONS = {
  jsc: {
    target: 'es2024',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/intake-test-swc/', import.meta.url));
const CACHE_VERSION = JSON.stringify([SWC_OPTIONS, process.versions.node]);

function compile(filename) {
  const source = readFileSync(filename, 'utf8');
  const key = createHash('sha256').update(CACHE_VERSION).update(filename).update(source).digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    const { code } = transformSync(source, { ...SWC_OPTIONS, filename });
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed: another worker may read the same entry at the same moment.
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, cached);
    return code;
  }
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@jest/globals') {
      return { url: GLOBALS, shortCircuit: true };
    }
    const withSources = { ...context, conditions: [SOURCE_CONDITION, ...context.conditions] };
    try {
      return nextResolve(specifier, withSources);
    } catch (error) {
      // TypeScript's own resolution: `./name.js` and the console's `./name` (bundler style) are `./name.ts`.
      if (error?.code === 'ERR_MODULE_NOT_FOUND' && /^\.{1,2}\//.test(specifier)) {
        return nextResolve(`${specifier.replace(/\.js$/, '')}.ts`, withSources);
      }
      throw error;
    }
  },
  load(url, context, nextLoad) {
    // The runner imports each test file with a query (`?<time>`) so that it runs anew.
    const file = url.split('?')[0];
    if (file.startsWith('file:') && file.endsWith('.ts') && !file.endsWith('.d.ts')) {
      return { format: 'module', source: compile(fileURLToPath(file)), shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});
