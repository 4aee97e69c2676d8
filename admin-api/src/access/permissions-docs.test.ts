// docs/teams.md shows the permission table for readers; this holds it to the code's table
// (permissions.ts), row for row, so neither can change without the other.
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '@intake/shared/test';
import path from 'node:path';
import {
  OPEN_DURING_ENROLMENT,
  OPERATION_PERMISSIONS,
  ROLE_PERMISSIONS,
  SITE_LIMITED_TEAM_PERMISSIONS,
  SITE_PERMISSIONS,
  TEAM_PERMISSIONS,
  TOKEN_LEVEL_PERMISSIONS,
  type OperationRule,
} from './permissions.js';

const DOCS = readFileSync(path.join(REPO_ROOT, 'docs', 'teams.md'), 'utf8');

/** The cells of every table row whose first cell is a code span matching `first`. */
function rows(first: RegExp): string[][] {
  return DOCS.split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    )
    .filter((cells) => first.test(cells[0]!));
}

function siteFrom(rule: OperationRule): string {
  if (!('site' in rule)) {
    return '—';
  }
  if (rule.site === 'each') {
    return 'each site listed';
  }
  const [object, argument] = Object.entries(rule.site)[0]!;
  return `the ${object} of \`${argument}\``;
}

describe('docs/teams.md', () => {
  it('lists every operation with the permission, the site and the login rule of the code', () => {
    const documented = rows(/^`(Query|Mutation)\./).filter((cells) => cells.length === 4);
    const expected = (['Query', 'Mutation'] as const).flatMap((root) =>
      (Object.entries(OPERATION_PERMISSIONS[root]) as [string, OperationRule][]).map(([field, rule]) => [
        `\`${root}.${field}\``,
        `\`${rule.permission}\``,
        siteFrom(rule),
        'login' in rule && rule.login ? 'yes' : 'no',
      ]),
    );
    expect([...documented].sort()).toEqual([...expected].sort());
  });

  it('lists exactly the operations that need a recent sign-in, each of them login only but updateMember', () => {
    const documented = rows(/^`Mutation\./)
      .filter((cells) => cells.length === 2)
      .map((cells) => cells[0]);
    const expected = (Object.entries(OPERATION_PERMISSIONS.Mutation) as [string, OperationRule][])
      .filter(([, rule]) => 'recentSignIn' in rule && rule.recentSignIn === true)
      .map(([field, rule]) => {
        // updateMember: setup as code grants site access with an ADMIN token (docs/teams.md says so).
        expect([field, 'login' in rule && rule.login]).toEqual([field, field !== 'updateMember']);
        return `\`Mutation.${field}\``;
      });
    expect([...documented].sort()).toEqual([...expected].sort());
  });

  it("gives each role the code's team permissions", () => {
    const documented = rows(/^`[a-z:]+`$/).filter((cells) => cells.length === 4);
    const expected = TEAM_PERMISSIONS.map((permission) => [
      `\`${permission}\``,
      ...(['owner', 'admin', 'member'] as const).map((role) =>
        ROLE_PERMISSIONS[role].includes(permission) ? 'yes' : 'no',
      ),
    ]);
    expect(documented).toEqual(expected);
  });

  it("gives each API token level and a site list the code's permissions", () => {
    const documented = rows(/^`[a-z:]+`$/).filter((cells) => cells.length === 5);
    const expected = [...TEAM_PERMISSIONS, ...SITE_PERMISSIONS].map((permission) => [
      `\`${permission}\``,
      ...(['read', 'manage', 'admin'] as const).map((level) => TOKEN_LEVEL_PERMISSIONS[level][permission]),
      (SITE_PERMISSIONS as readonly string[]).includes(permission)
        ? 'listed sites'
        : (SITE_LIMITED_TEAM_PERMISSIONS as readonly string[]).includes(permission)
          ? 'yes'
          : 'no',
    ]);
    expect(documented).toEqual(expected);
  });
});

describe('docs/sign-in.md', () => {
  it('lists exactly what a member held at enrolment may still use', () => {
    const page = readFileSync(path.join(REPO_ROOT, 'docs', 'sign-in.md'), 'utf8');
    const table = page.slice(page.indexOf('| Open to a member held at enrolment |'));
    const rowsOfTable = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const documented = rowsOfTable.flatMap((row) =>
      [...row.split('|')[1]!.matchAll(/`(Query|Mutation)\.(\w+)`/g)].map((match) => `${match[1]}.${match[2]}`),
    );
    const expected = (['Query', 'Mutation'] as const).flatMap((root) =>
      OPEN_DURING_ENROLMENT[root].map((field) => `${root}.${field}`),
    );
    expect([...documented].sort()).toEqual([...expected].sort());
  });
});
