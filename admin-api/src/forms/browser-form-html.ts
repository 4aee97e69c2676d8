// The HTML form the API view offers for a form that takes browser posts (docs/static-sites.md):
// pasted into a static page as it is, it posts without JavaScript, and with it the gateway's script
// sends it with fetch and runs the challenge's widget. It holds no key and no token: only the
// form's public endpoint and the gateway's own scripts.
import { BROWSER_PATHS, browserLimitsOf, CHALLENGE_FIELD } from '@intake/shared/browser-posting';
import type { Config } from '@intake/shared/config';
import type { Form } from '@intake/shared/entities';
import { fromJsonSchema, type DeclaredField } from '@intake/shared/form-shape';
import { DEFAULT_ALLOWED_MIME_TYPES, MIME_TYPE_BY_EXTENSION } from '@intake/shared/mime-types';

/** What a form without declared fields asks for: what most contact forms do. */
const DEFAULT_FIELDS: DeclaredField[] = [
  { name: 'name', type: 'text', required: true, maxLength: 200, choices: null },
  { name: 'email', type: 'email', required: true, maxLength: null, choices: null },
  { name: 'message', type: 'text', required: true, maxLength: 5000, choices: null },
];

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A label people read: `first_name` as "First name". */
function labelOf(name: string): string {
  const words = name.replace(/[_\-.[\]]+/g, ' ').trim();
  return words === '' ? name : words.charAt(0).toUpperCase() + words.slice(1);
}

function attributes(pairs: Record<string, string | number | boolean | undefined>): string {
  return Object.entries(pairs)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([key, value]) => (value === true ? ` ${key}` : ` ${key}="${escapeHtml(String(value))}"`))
    .join('');
}

/** One declared field as the control a person fills. */
function control(field: DeclaredField, id: string): string {
  const common = { id, name: field.name, required: field.required };
  const maxlength = field.maxLength ?? undefined;
  switch (field.type) {
    case 'email':
      return `<input${attributes({ ...common, type: 'email', autocomplete: 'email', maxlength })}>`;
    case 'number':
      return `<input${attributes({ ...common, type: 'number', step: 'any' })}>`;
    case 'boolean':
      return `<input${attributes({ ...common, type: 'checkbox', value: 'true' })}>`;
    case 'choice':
      return `<select${attributes(common)}>${(field.choices ?? [])
        .map((choice) => `<option>${escapeHtml(choice)}</option>`)
        .join('')}</select>`;
    default:
      // Long text (a message) gets room to write; a list takes one entry here (a list of one).
      return (field.maxLength ?? 0) > 200 || /message|comment|text/i.test(field.name)
        ? `<textarea${attributes({ ...common, rows: 6, maxlength })}></textarea>`
        : `<input${attributes({ ...common, type: 'text', maxlength })}>`;
  }
}

function fieldBlock(field: DeclaredField, idPrefix: string): string {
  const id = `${idPrefix}-${field.name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const label = `<label for="${escapeHtml(id)}">${escapeHtml(labelOf(field.name))}</label>`;
  if (field.type === 'boolean') {
    return `  <p>${control(field, id)} ${label}</p>`;
  }
  return `  <p>${label}<br>\n    ${control(field, id)}</p>`;
}

/** The file types the form allows, as the extensions a file picker offers. */
function acceptOf(form: Form): string {
  const types =
    form.allowedMimeTypes && form.allowedMimeTypes.length > 0 ? form.allowedMimeTypes : DEFAULT_ALLOWED_MIME_TYPES;
  return [...MIME_TYPE_BY_EXTENSION]
    .filter(([, type]) => types.includes(type))
    .map(([extension]) => `.${extension}`)
    .join(',');
}

/** The ready-to-paste form, or null when the form does not take browser posts. */
export function browserFormHtml(
  form: Form,
  gatewayOrigin: string,
  config: Pick<Config, 'limits' | 'browser'>,
): string | null {
  if (!form.browserPosting) {
    return null;
  }
  const idPrefix = `intake-${form.code}`;
  const declared = form.fieldsSchema ? fromJsonSchema(form.fieldsSchema) : DEFAULT_FIELDS;
  const limits = browserLimitsOf(form, config);
  const lines = [
    `<form action="${escapeHtml(gatewayOrigin + '/api/v1/send/' + encodeURIComponent(form.code))}" method="post" enctype="multipart/form-data" data-intake-form>`,
    ...declared.map((field) => fieldBlock(field, idPrefix)),
  ];
  if (limits.maxFiles > 0) {
    const id = `${idPrefix}-attachment`;
    lines.push(
      `  <p><label for="${id}">Attachment</label><br>\n    <input${attributes({
        id,
        name: 'attachment',
        type: 'file',
        accept: acceptOf(form),
      })}></p>`,
    );
  }
  if (form.browserReservedFields ?? true) {
    // A honeypot: hidden from people, filled by bots that fill everything.
    lines.push(
      '  <p hidden><label>Leave this empty <input name="_gotcha" tabindex="-1" autocomplete="off"></label></p>',
    );
  }
  if ((form.browserChallenge ?? 'required') !== 'off') {
    lines.push(
      `  <altcha-widget challenge="${escapeHtml(gatewayOrigin + BROWSER_PATHS.challenge(form.code))}" name="${CHALLENGE_FIELD}" auto="onsubmit"></altcha-widget>`,
    );
  }
  if ((form.browserChallenge ?? 'required') === 'required') {
    lines.push(
      '  <noscript><p>Sending this form needs JavaScript: it proves in your browser that you are a person.</p></noscript>',
    );
  }
  lines.push('  <p><button type="submit">Send</button></p>', '  <p data-intake-status role="status"></p>', '</form>');
  if ((form.browserChallenge ?? 'required') !== 'off') {
    lines.push(`<script src="${escapeHtml(gatewayOrigin + BROWSER_PATHS.widget)}" defer></script>`);
  }
  lines.push(`<script src="${escapeHtml(gatewayOrigin + BROWSER_PATHS.script)}" defer></script>`);
  return `${lines.join('\n')}\n`;
}
