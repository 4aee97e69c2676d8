import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What a process loaded: module URLs on its main thread, and Node's list of its internal modules. */
export interface ModuleList {
  modules: string[];
  builtins: string[];
}

/**
 * Writes, in `dir`, a module for `node --import` that records every module URL the process loads
 * and writes them with Node's own list to the file named by LOADED_FILE when `when` happens: at
 * exit, or on each SIGUSR2 (as `<file>.part`, then an empty `<file>` once that is whole). Returns
 * the hook's path, for NODE_OPTIONS or the command line.
 */
export function writeModuleListHook(dir: string, when: 'exit' | 'SIGUSR2'): string {
  const hook = path.join(dir, 'module-list-hook.mjs');
  writeFileSync(
    hook,
    `
import { registerHooks } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
const loaded = new Set();
registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context); } });
process.on(${JSON.stringify(when)}, () => {
  writeFileSync(process.env.LOADED_FILE + '.part', JSON.stringify({ modules: [...loaded], builtins: process.moduleLoadList }));
  writeFileSync(process.env.LOADED_FILE, '');
});
`,
  );
  return hook;
}

/** The list a hook of writeModuleListHook wrote for LOADED_FILE `file` (once `file` exists). */
export function readModuleList(file: string): ModuleList {
  return JSON.parse(readFileSync(`${file}.part`, 'utf8')) as ModuleList;
}
