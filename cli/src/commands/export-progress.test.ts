import { describe, expect, it } from '@jest/globals';
import { progressText, RecordCounter } from './export-progress.js';

const counted = (format: 'csv' | 'json' | 'ndjson', chunks: string[]) => {
  const counter = new RecordCounter(format);
  for (const chunk of chunks) {
    counter.push(Buffer.from(chunk));
  }
  return counter.records;
};

describe('RecordCounter', () => {
  it('counts NDJSON lines', () => {
    expect(counted('ndjson', ['{"a":1}\n{"a"', ':2}\n'])).toBe(2);
  });

  it('counts JSON rows as they start, not the closing bracket', () => {
    expect(counted('json', ['[\n{"a":"x\\ny"},\n{"a"'])).toBe(2);
    expect(counted('json', ['[\n{"a":1},\n', '{"a":2}\n]\n'])).toBe(2);
    expect(counted('json', ['[]\n'])).toBe(0);
  });

  it('counts CSV records past the header, not line breaks inside quoted cells, across chunks', () => {
    expect(counted('csv', ['\ufeffid,message\n', '1,"two\nlines ""quoted', '"" here"\n2,plain\n'])).toBe(2);
  });

  it('says how far an export is', () => {
    expect(progressText(400, 1000, 2048)).toBe('Exporting: 400 of 1,000 submissions (40%), 2.0 KiB');
    expect(progressText(5, undefined, 3 * 1024 * 1024)).toBe('Exporting: 5 submissions, 3.0 MiB');
  });
});
