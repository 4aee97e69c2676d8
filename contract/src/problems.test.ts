// The catalogue itself, and the documentation that lists it: a code missing from either side fails.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  codesAnsweredAs,
  ERROR_CATALOGUE,
  GRAPHQL_ERROR_CODES,
  PROBLEM_CODES,
  type ErrorCode,
  type GraphQLErrorCode,
  type ProblemCode,
} from './problems.js';

const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** The first two cells of each table row in a docs page section whose header has `column`. */
function documentedRows(page: string, column: string): { status: string; code: string }[] {
  const text = readFileSync(fileURLToPath(new URL(`../../docs/${page}`, import.meta.url)), 'utf8');
  const rows: { status: string; code: string }[] = [];
  let columns: string[] | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      columns = undefined;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`|`$/g, ''));
    if (columns === undefined) {
      columns = cells;
    } else if (columns.includes(column) && !/^-+$/.test(cells[0] ?? '')) {
      const at = (name: string) => cells[columns!.indexOf(name)] ?? '';
      rows.push({ code: at(column), status: at(columns.includes('status') ? 'status' : 'HTTP') });
    }
  }
  return rows;
}

describe('the error catalogue', () => {
  it('gives every entry a status, a stable code, a GraphQL code, a title and where clients meet it', () => {
    expect(CODES.length).toBeGreaterThan(0);
    for (const code of CODES) {
      const entry = ERROR_CATALOGUE[code];
      expect({ code, valid: /^[a-z]+(_[a-z0-9]+)*$/.test(code) }).toEqual({ code, valid: true });
      expect({ code, status: entry.status >= 400 && entry.status <= 599 }).toEqual({ code, status: true });
      expect({ code, graphqlCode: /^[A-Z]+(_[A-Z0-9]+)*$/.test(entry.graphqlCode) }).toEqual({
        code,
        graphqlCode: true,
      });
      expect({ code, title: entry.title.trim().length > 0 }).toEqual({ code, title: true });
      expect({ code, via: entry.via.length > 0 }).toEqual({ code, via: true });
    }
    // Each GraphQL code names one entry, so formatError's answer says which error it was.
    const graphqlCodes = CODES.map((code) => ERROR_CATALOGUE[code].graphqlCode);
    expect(new Set(graphqlCodes).size).toBe(graphqlCodes.length);
  });

  it('matches the problem codes of docs/intake-api.md, with their statuses', () => {
    const documented = documentedRows('intake-api.md', 'code');
    expect([...new Set(documented.map(({ code }) => code))].sort()).toEqual([...PROBLEM_CODES].sort());
    for (const { code, status } of documented) {
      expect({ code, status }).toEqual({ code, status: String(ERROR_CATALOGUE[code as ErrorCode].status) });
    }
  });

  it("matches the `extensions.code` table of docs/admin-api.md (Apollo's own codes aside)", () => {
    const apollos = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST']);
    const documented = documentedRows('admin-api.md', 'extensions.code')
      .map(({ code }) => code)
      .filter((code) => !apollos.has(code));
    expect(documented.sort()).toEqual([...GRAPHQL_ERROR_CODES].sort());
  });

  it('holds the masked answer for unknown errors', () => {
    expect(ERROR_CATALOGUE.internal_error).toMatchObject({ status: 500, graphqlCode: 'INTERNAL_SERVER_ERROR' });
  });
});

describe('the codes of each transport', () => {
  it('lists the problem codes and the GraphQL codes in catalogue order, and nothing else', () => {
    expect(PROBLEM_CODES).toEqual(
      CODES.filter((code) => (ERROR_CATALOGUE[code].via as readonly string[]).includes('problem')),
    );
    expect(GRAPHQL_ERROR_CODES).toEqual(
      CODES.filter((code) => (ERROR_CATALOGUE[code].via as readonly string[]).includes('graphql')).map(
        (code) => ERROR_CATALOGUE[code].graphqlCode,
      ),
    );
    expect(codesAnsweredAs('problem')).toEqual(PROBLEM_CODES);
    // Shared by every module that imports the contract: nobody can add a code to their copy.
    expect(Object.isFrozen(PROBLEM_CODES)).toBe(true);
    expect(Object.isFrozen(GRAPHQL_ERROR_CODES)).toBe(true);
  });

  it('types each list as exactly its codes (checked by the tests’ type check)', () => {
    // A code of the wrong transport is not a ProblemCode, nor a snake_case code a GraphQLErrorCode.
    // @ts-expect-error: `forbidden` is the admin API's only
    const notAProblem: ProblemCode = 'forbidden';
    // @ts-expect-error: `extensions.code` is upper case
    const notGraphql: GraphQLErrorCode = 'rate_limited';
    const problems: readonly ProblemCode[] = ['fields_invalid', 'rate_limited', 'internal_error'];
    const graphql: readonly GraphQLErrorCode[] = ['BAD_USER_INPUT', 'RATE_LIMITED', 'INTERNAL_SERVER_ERROR'];
    expect([notAProblem, notGraphql]).toEqual(['forbidden', 'rate_limited']);
    expect(problems.every((code) => PROBLEM_CODES.includes(code))).toBe(true);
    expect(graphql.every((code) => GRAPHQL_ERROR_CODES.includes(code))).toBe(true);
  });
});
