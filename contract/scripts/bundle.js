// Bundles the compiled contract into the package built in the current folder: copies contract/dist
// (its .js and .d.ts files) to ./dist/contract/, where that package's "imports" entry `#contract`
// points at run time and where its own types find it. The command line and the client are packed and
// installed alone, and @intake/contract is a private workspace: it travels inside their tarballs.
// Run after `tsc -b` (which builds the contract first: it is a reference of both).
//
//   node ../contract/scripts/bundle.js      from cli/ or client/ (their build and prepack)
import { cpSync, existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const compiled = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const target = path.resolve('dist', 'contract');

if (!existsSync(path.join(compiled, 'index.js'))) {
  console.error(`bundle: ${compiled} has no index.js; build the contract first (tsc -b)`);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(compiled, target, {
  recursive: true,
  // Folders, and the code and its types; not the tests, the source maps or the build info.
  filter: (source) =>
    statSync(source).isDirectory() || (/\.(js|d\.ts)$/.test(source) && !/\.test\.(js|d\.ts)$/.test(source)),
});
