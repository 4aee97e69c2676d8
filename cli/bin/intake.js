#!/usr/bin/env node
// The `intake` command: runs the compiled command line. In a clone, `npm run build` compiles it
// (npm links this file at `npm install`, before anything is built, hence this message).
try {
  await import('../dist/main.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/main.js')) {
    console.error('intake: not built yet: run `npm run build` first');
    process.exit(1);
  }
  throw error;
}
