// Sample files built in memory (images, PDF, Office documents, archives, archive bombs) for the
// tests, the reliability runs and the bench. Development only: no service depends on it.
export * from './samples.js';
export * from './archives.js';
export * from './visio-fixtures.js';
