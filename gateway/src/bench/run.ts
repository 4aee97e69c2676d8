// `npm run bench`: runs every benchmark, prints a table, and writes bench/results.json at the root.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { benchInspection } from './inspection.js';

const inspection = await benchInspection();
console.log('Archive inspection (median of 5 runs)');
console.table(
  inspection.map((figure) => ({
    case: figure.name,
    'median ms': figure.medianMs.toFixed(1),
    outcome: figure.outcome,
    'MB/s': figure.mbPerSecond?.toFixed(0) ?? '',
    target: figure.target,
    met: figure.met ? 'yes' : 'NO',
  })),
);
const resultsDir = path.resolve('bench');
await mkdir(resultsDir, { recursive: true });
await writeFile(
  path.join(resultsDir, 'results.json'),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, inspection }, null, 2)}\n`,
);
process.exitCode = inspection.every((figure) => figure.met) ? 0 : 1;
