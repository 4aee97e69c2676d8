// `npm run lint` (first step): every package a workspace's code imports (src/, bin/, tests, scripts,
// configuration files: every folder but node_modules and dist) is declared in that workspace's
// package.json, and every production dependency is imported; npm hoists everything to the root, so
// an undeclared import works here and breaks the day the package is installed alone. No service
// names another; the client and the contract declare no runtime dependency. Imports are read with
// TypeScript's own pre-processor. The rules, by where a file sits: docs/architecture.md ("What a
// workspace may import").
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rootPackage = readJson(path.join(root, 'package.json'));
const builtins = new Set(builtinModules);

// Imported under another name than the package that provides it.
const PROVIDED_BY = { '@jest/globals': 'jest' };
// Declared on purpose without an import: the peer dependency of a package that is imported.
const USED_WITHOUT_IMPORT = {
  multer: 'the peer dependency of @koa/multer',
  '@mikro-orm/core': 'the peer dependency of @mikro-orm/migrations',
};

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) {
      continue;
    }
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      files.push(...sourceFiles(full));
    } else if (/\.(ts|tsx|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      files.push(full);
    }
  }
  return files;
}

/**
 * `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; undefined for relative and built-in, and
 * for the workspace's own subpath imports (`#…`, read apart by `bundledPackageOf`).
 */
function packageOf(specifier) {
  if (
    specifier.startsWith('.') ||
    specifier.startsWith('/') ||
    specifier.startsWith('node:') ||
    specifier.startsWith('#')
  ) {
    return undefined;
  }
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtins.has(name) ? undefined : (PROVIDED_BY[name] ?? name);
}

/** The package a subpath import (`#contract`) stands for in the sources: its "@intake/source" target. */
function bundledPackageOf(specifier, pkg) {
  const entry = pkg.imports?.[specifier];
  const target = typeof entry === 'string' ? entry : entry?.['@intake/source'];
  return typeof target === 'string' ? packageOf(target) : undefined;
}

const SERVICES = new Set(['@intake/gateway', '@intake/admin-api', '@intake/worker']);
// Imports nothing and declares nothing: what crosses package lines, bundled by the packages that ship alone.
const IMPORTS_NOTHING = new Set(['@intake/contract']);
// Published packages whose code runs with Node's built-ins alone.
const WITHOUT_RUNTIME_DEPENDENCIES = new Set(['@intake/client']);
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

/** Specifiers a file imports or re-exports only as types (`import type`, `export type`): erased by tsc. */
function typeOnlySpecifiers(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const typeOnly = new Set();
  const valued = new Set();
  for (const statement of source.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier) {
      continue;
    }
    const specifier = statement.moduleSpecifier.text;
    const isTypeOnly = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly === true
      : statement.isTypeOnly;
    (isTypeOnly ? typeOnly : valued).add(specifier);
  }
  return new Set([...typeOnly].filter((specifier) => !valued.has(specifier)));
}

const isTestFile = (file) => /\.test\.tsx?$/.test(file) || /[\\/]src[\\/]test[\\/]/.test(file);
const PRODUCTION_FOLDERS = new Set(['src', 'bin']);

/**
 * What a file is, by where it sits in its workspace: a test, production code (src/ and bin/; every
 * file of the migrations but its jest configuration), or tooling (build scripts, configuration files).
 */
function roleOf(workspace, file) {
  if (isTestFile(file)) {
    return 'test';
  }
  const relative = path.relative(path.join(root, workspace), file);
  const top = relative.split(path.sep)[0];
  if (PRODUCTION_FOLDERS.has(top) || (workspace === 'migrations' && !/\.config\.[cm]?[jt]s$/.test(relative))) {
    return 'production';
  }
  return 'tooling';
}

const problems = [];
for (const workspace of rootPackage.workspaces) {
  const dir = path.join(root, workspace);
  const pkg = readJson(path.join(dir, 'package.json'));
  const dependencies = new Set(Object.keys(pkg.dependencies ?? {}));
  const devDependencies = new Set(Object.keys(pkg.devDependencies ?? {}));
  const rootDevDependencies = new Set(Object.keys(rootPackage.devDependencies ?? {}));
  const builtinsOnly = WITHOUT_RUNTIME_DEPENDENCIES.has(pkg.name);
  const importsNothing = IMPORTS_NOTHING.has(pkg.name);
  const developmentOnly = dependencies.size === 0 && !builtinsOnly && !importsNothing;
  if (builtinsOnly && dependencies.size > 0) {
    problems.push(`${workspace}/package.json: declares dependencies; it must run on Node's built-ins alone`);
  }
  if (importsNothing) {
    for (const field of DEPENDENCY_FIELDS) {
      for (const name of Object.keys(pkg[field] ?? {})) {
        problems.push(`${workspace}/package.json: ${field} names ${name}; the contract depends on nothing`);
      }
    }
  }
  // The packages this workspace bundles through its subpath imports (`#contract` → @intake/contract).
  const bundled = new Set(Object.keys(pkg.imports ?? {}).map((specifier) => bundledPackageOf(specifier, pkg)));
  if (SERVICES.has(pkg.name)) {
    for (const field of DEPENDENCY_FIELDS) {
      for (const name of Object.keys(pkg[field] ?? {})) {
        if (SERVICES.has(name)) {
          problems.push(
            `${workspace}/package.json: ${field} names ${name}, another service (a run across services belongs in tests/)`,
          );
        }
      }
    }
  }
  const used = new Set();
  for (const file of sourceFiles(dir)) {
    const role = roleOf(workspace, file);
    const text = readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const typeOnly = typeOnlySpecifiers(file, text);
    for (const { fileName: specifier } of importedFiles) {
      if (importsNothing && role === 'production' && !specifier.startsWith('.')) {
        problems.push(`${path.relative(root, file)}: imports ${specifier}; the contract imports only its own files`);
        continue;
      }
      if (specifier.startsWith('#')) {
        const target = bundledPackageOf(specifier, pkg);
        if (target && !dependencies.has(target) && !devDependencies.has(target)) {
          problems.push(
            `${path.relative(root, file)}: imports ${specifier} (${target}), not in ${workspace}/package.json dependencies or devDependencies`,
          );
        }
        if (target && role !== 'tooling') {
          used.add(target);
        }
        continue;
      }
      const name = packageOf(specifier);
      if (!name || name === pkg.name) {
        continue;
      }
      // A dependency counts as imported where production code or a test uses it, not a build script.
      if (role !== 'tooling') {
        used.add(name);
      }
      const production = role === 'production' && !developmentOnly && !typeOnly.has(specifier);
      const declared =
        dependencies.has(name) ||
        (!production && devDependencies.has(name)) ||
        (role === 'test' && rootDevDependencies.has(name));
      if (!declared) {
        const where = production ? 'dependencies' : 'dependencies or devDependencies';
        const hint =
          bundled.has(name) && role !== 'test'
            ? ` (it is bundled: import it through ${workspace}/package.json "imports")`
            : '';
        problems.push(
          `${path.relative(root, file)}: imports ${name}, not in ${workspace}/package.json ${where}${hint}`,
        );
      }
    }
  }
  for (const name of dependencies) {
    if (!used.has(name) && !name.startsWith('@types/') && !USED_WITHOUT_IMPORT[name]) {
      problems.push(
        `${workspace}/package.json: declares ${name}, which neither its production code nor its tests import`,
      );
    }
  }
}

if (problems.length > 0) {
  console.error(
    `Dependencies not declared where they are imported, a service depending on another, or the contract importing (scripts/check-dependencies.js):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
