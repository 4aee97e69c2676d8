// A fresh process that times the upload costs (upload-costs.ts) and sends them to the bench. Timed in
// the bench's own process after the load runs, they carried the garbage collection of its large
// heap: the PNG's checks measured 359 µs there against 87 to 109 µs in a fresh process.
import { measureUploadCosts } from './upload-costs.js';

const seconds = Number(process.argv[2] ?? '3');
process.send!(await measureUploadCosts(seconds), () => process.disconnect());
