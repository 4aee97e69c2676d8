// A plan for people (`+ create`, `~ update`, `- delete`, field by field) and for scripts (JSON).
// Secrets never appear: a secret field reads "(secret changes)".
import type { FieldChange } from './field-change.js';
import type { PlannedChange } from './plan.js';

const SECRET = '(secret changes)';
const SIGNS = { create: '+', update: '~', delete: '-' } as const;

function show(value: unknown): string {
  return value === undefined ? '(unset)' : JSON.stringify(value);
}

function fieldLine(change: FieldChange, action: PlannedChange['action']): string {
  if (change.secret) {
    return `${change.field}: ${SECRET}`;
  }
  if (change.text) {
    return change.text;
  }
  return action === 'create'
    ? `${change.field}: ${show(change.to)}`
    : `${change.field}: ${show(change.from)} → ${show(change.to)}`;
}

export function summaryOf(changes: PlannedChange[]) {
  return {
    create: changes.filter((change) => change.action === 'create').length,
    update: changes.filter((change) => change.action === 'update').length,
    delete: changes.filter((change) => change.action === 'delete').length,
  };
}

export function renderPlan(changes: PlannedChange[], file: string): string {
  if (changes.length === 0) {
    return `No changes: the server matches ${file}.`;
  }
  const lines: string[] = [];
  for (const change of changes) {
    lines.push(`${SIGNS[change.action]} ${change.action} ${change.address}`);
    for (const field of change.fields) {
      lines.push(`    ${fieldLine(field, change.action)}`);
    }
  }
  const { create, update, delete: remove } = summaryOf(changes);
  lines.push('', `Plan: ${create} to create, ${update} to change, ${remove} to delete.`);
  return lines.join('\n');
}

/** The plan as data: secret values left out, `secret: true` in their place. */
export function planJson(changes: PlannedChange[]) {
  return {
    changes: changes.map(({ action, kind, address, fields }) => ({
      action,
      kind,
      address,
      fields: fields.map((field) =>
        field.secret ? { field: field.field, secret: true } : { field: field.field, from: field.from, to: field.to },
      ),
    })),
    summary: summaryOf(changes),
  };
}
