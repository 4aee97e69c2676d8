// A fresh process that times the sanitiser (sanitiser-cost.ts) and sends the figure to the bench.
// Timed in the bench's own process after the load runs, it read 230 to 367 µs per form from one run
// to the next; see docs/performance.md.
import { HTML_FIELDS } from './payloads.js';
import { sanitiserCost } from './sanitiser-cost.js';

const seconds = Number(process.argv[2] ?? '3');
process.send!(sanitiserCost(HTML_FIELDS, seconds), () => process.disconnect());
