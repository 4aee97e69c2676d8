// After `tsc -b`: copies the compiled field declarations the setup file shares with the admin API
// (@intake/shared/input-fields, and the files it imports) into dist/shared/, where this package's
// "imports" entry `#shared/input-fields` points at run time. The command line is packed and installed
// alone, and @intake/shared is a private workspace (no registry has it, and it would bring the whole
// kernel): a copy of the few zod-only files it needs travels in the tarball instead. In the sources and
// the tests the same entry resolves to the workspace itself (the "@intake/source" and "types" conditions).
//
// The copy follows relative imports from the entry; any other import but zod stops the build, since
// the installed command line could not resolve it.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(cliRoot, 'package.json'), 'utf8'));
const ALLOWED_PACKAGES = new Set(['zod']);

const entry = createRequire(import.meta.url).resolve('@intake/shared/input-fields');
// The compiled kernel's dist/: the copy keeps the layout below it, so relative imports still hold.
const sharedDist = path.dirname(path.dirname(entry));
const target = path.join(cliRoot, 'dist', 'shared');

const pending = [entry];
const copied = new Set();
while (pending.length > 0) {
  const file = pending.pop();
  if (copied.has(file)) {
    continue;
  }
  copied.add(file);
  const relative = path.relative(sharedDist, file);
  mkdirSync(path.join(target, path.dirname(relative)), { recursive: true });
  copyFileSync(file, path.join(target, relative));
  for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
    if (specifier.startsWith('.')) {
      pending.push(path.resolve(path.dirname(file), specifier));
    } else if (!ALLOWED_PACKAGES.has(specifier) || !pkg.dependencies?.[specifier]) {
      console.error(
        `copy-shared: ${path.relative(sharedDist, file)} imports ${specifier}; the packed command line ` +
          'carries only zod (keep @intake/shared/input-fields free of other imports)',
      );
      process.exit(1);
    }
  }
}
