// docs/intake-config.schema.json is the zod schema's JSON Schema, and editors checking a file with it
// agree with the command line: the documented example passes, what the command line refuses fails.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { CLI_ROOT } from '../test/cli-harness.js';
import { setupFileSchema, setupJsonSchema } from './schema.js';

const docs = (name: string) => readFile(path.join(CLI_ROOT, '../docs', name), 'utf8');

async function published(): Promise<Record<string, unknown>> {
  return JSON.parse(await docs('intake-config.schema.json')) as Record<string, unknown>;
}

async function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(await published());
}

describe('the setup file JSON Schema', () => {
  it('is the one printed from the zod schema (run `intake schema > docs/intake-config.schema.json`)', async () => {
    expect(await published()).toEqual(setupJsonSchema());
  });

  it('accepts the example of docs/cli.md, as the command line does', async () => {
    const example = parse(/```yaml\n([\s\S]*?)```/.exec(await docs('cli.md'))![1]!);
    expect((await validator())(example)).toBe(true);
    expect(setupFileSchema.safeParse(example).success).toBe(true);
  });

  it.each([
    ['an unknown key', { version: 1, sites: [{ name: 'A', colour: 'blue' }] }],
    [
      'a literal secret',
      {
        version: 1,
        sites: [{ name: 'A', forms: [{ name: 'F', captcha: { provider: 'TURNSTILE', secret: 'plain' } }] }],
      },
    ],
    [
      'an unknown CAPTCHA provider',
      { version: 1, sites: [{ name: 'A', forms: [{ name: 'F', captcha: { provider: 'X', secret: '${env:S}' } }] }] },
    ],
    ['a retention over 3650 days', { version: 1, sites: [{ name: 'A', forms: [{ name: 'F', retentionDays: 4000 }] }] }],
    [
      'a grant level that does not exist',
      { version: 1, sites: [{ name: 'A', members: [{ email: 'a@example.com', level: 'owner' }] }] },
    ],
    [
      'a field type that does not exist',
      { version: 1, sites: [{ name: 'A', forms: [{ name: 'F', fields: [{ name: 'x', type: 'DATE' }] }] }] },
    ],
    [
      'unknownFields in capitals',
      { version: 1, sites: [{ name: 'A', forms: [{ name: 'F', unknownFields: 'DROP' }] }] },
    ],
    ['an empty name', { version: 1, sites: [{ name: '' }] }],
    ['another version', { version: 2, sites: [] }],
  ])('refuses %s, as the command line does', async (_label, document) => {
    expect((await validator())(document)).toBe(false);
    expect(setupFileSchema.safeParse(document).success).toBe(false);
  });
});
