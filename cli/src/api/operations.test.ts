// Every document the command line sends is valid against the admin API's printed schema
// (docs/schema.graphql, kept current by the admin API's own test): a renamed field or argument
// fails here, not in a user's terminal.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { buildSchema, parse, validate } from 'graphql';
import { CLI_ROOT } from '../test/cli-harness.js';
import { Q } from './operations.js';

describe('the GraphQL documents of the command line', () => {
  it.each(Object.entries(Q))('%s is valid against docs/schema.graphql', async (_name, document) => {
    const schema = buildSchema(await readFile(path.join(CLI_ROOT, '../docs/schema.graphql'), 'utf8'));
    expect(validate(schema, parse(document)).map((error) => error.message)).toEqual([]);
  });
});
