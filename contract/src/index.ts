// @intake/contract: what crosses package lines (README.md). It imports nothing, so the command line
// and the client carry it inside their tarballs (scripts/bundle.js) and the console in its bundle.
export * from './browser-posting.js';
export * from './field-path.js';
export * from './form-schedule.js';
export * from './input-bounds.js';
export * from './problems.js';
export * from './return-path.js';
export type * from './stored-file.js';
