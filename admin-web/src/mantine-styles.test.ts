// The console imports Mantine's styles per component (src/mantine-styles.ts): every Mantine class
// that the built console's scripts can set has its rules in the built CSS, so a component added
// without its stylesheet fails here instead of showing unstyled. Reads the build `npm test` makes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const ASSETS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/assets');
const MANTINE_CSS = fileURLToPath(import.meta.resolve('@mantine/core/styles.css'));

/** Mantine's generated class names (`m_` and eight hex digits) in `text`. */
const mantineClasses = (text: string) => new Set(text.match(/\bm_[0-9a-f]{8}\b/g) ?? []);

const builtText = (extension: string) =>
  readdirSync(ASSETS)
    .filter((file) => file.endsWith(extension))
    .map((file) => readFileSync(path.join(ASSETS, file), 'utf8'))
    .join('\n');

describe("the console's Mantine styles", () => {
  it('style every Mantine class the console can set, and leave out most of the rest', () => {
    const styled = mantineClasses(readFileSync(MANTINE_CSS, 'utf8'));
    const set = [...mantineClasses(builtText('.js'))].filter((name) => styled.has(name));
    const built = mantineClasses(builtText('.css'));
    expect(set.length).toBeGreaterThan(100);
    expect(set.filter((name) => !built.has(name))).toEqual([]);
    // Per component, not the whole sheet: fewer than half of Mantine's classes.
    expect(built.size).toBeLessThan(styled.size / 2);
  });
});
