import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, codesAnsweredAs, ERROR_CATALOGUE, toProblem, type ErrorCode } from './index.js';
import { REPO_ROOT } from '../test/processes.js';

const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** The first two cells of each table row in a docs page section whose header has `column`. */
function documentedRows(page: string, column: string): { status: string; code: string }[] {
  const text = readFileSync(path.join(REPO_ROOT, 'docs', page), 'utf8');
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
    expect([...new Set(documented.map(({ code }) => code))].sort()).toEqual(codesAnsweredAs('problem').sort());
    for (const { code, status } of documented) {
      expect({ code, status }).toEqual({ code, status: String(ERROR_CATALOGUE[code as ErrorCode].status) });
    }
  });

  it("matches the `extensions.code` table of docs/admin-api.md (Apollo's own codes aside)", () => {
    const apollos = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST']);
    const documented = documentedRows('admin-api.md', 'extensions.code')
      .map(({ code }) => code)
      .filter((code) => !apollos.has(code));
    expect(documented.sort()).toEqual(
      codesAnsweredAs('graphql')
        .map((code) => ERROR_CATALOGUE[code].graphqlCode)
        .sort(),
    );
  });

  it('holds the masked answer for unknown errors', () => {
    expect(ERROR_CATALOGUE.internal_error).toMatchObject({ status: 500, graphqlCode: 'INTERNAL_SERVER_ERROR' });
  });
});

describe('toProblem', () => {
  it('renders a catalogued error with its status and code', () => {
    const problem = toProblem(new AppError('token_invalid', 'The site token is not valid.'));
    expect(problem).toEqual({
      type: 'urn:intake:problem:token_invalid',
      title: 'Site token invalid',
      status: 403,
      detail: 'The site token is not valid.',
      code: 'token_invalid',
    });
  });

  it('masks an unknown error as a generic 500 without its message', () => {
    const problem = toProblem(new Error('password=hunter2 at db.internal:5432'));
    expect(problem.status).toBe(500);
    expect(problem.code).toBe('internal_error');
    expect(JSON.stringify(problem)).not.toContain('hunter2');
  });

  it('keeps Retry-After seconds on the error', () => {
    expect(new AppError('service_unavailable', undefined, { retryAfter: 5 }).retryAfter).toBe(5);
  });

  it("carries the entry's GraphQL code for the admin API", () => {
    expect(new AppError('service_unavailable').graphqlCode).toBe('SERVICE_UNAVAILABLE');
  });
});
