// Ready-to-paste requests for a site backend: the endpoint and the site token filled in, the API key
// left as the INTAKE_API_KEY environment variable (it is a server secret the console never sees).
// A form that declares its fields gets those fields, in order, with a value each would take.
import type { FieldType } from '../../gql/graphql';

/** What the examples need of a declared field. */
export interface ExampleField {
  name: string;
  type: FieldType;
  maxLength?: number | null;
  choices?: readonly string[] | null;
}

type SampleValue = string | number | boolean | string[];

/** The fields of a form without declared ones: what most contact forms send. */
const DEFAULT_SAMPLE: [string, SampleValue][] = [
  ['name', 'Ada Lovelace'],
  ['email', 'ada@example.com'],
  ['message', 'Hello'],
];

function sampleText(name: string, maxLength: number | null | undefined): string {
  const text = /name/i.test(name) ? 'Ada Lovelace' : 'Hello';
  return maxLength ? text.slice(0, maxLength) : text;
}

/** A value each declared field takes, in the declared order. */
export function sampleFields(fields: readonly ExampleField[]): [string, SampleValue][] {
  if (fields.length === 0) {
    return DEFAULT_SAMPLE;
  }
  return fields.map((field): [string, SampleValue] => {
    switch (field.type) {
      case 'EMAIL':
        return [field.name, 'ada@example.com'];
      case 'NUMBER':
        return [field.name, 42];
      case 'BOOLEAN':
        return [field.name, true];
      case 'CHOICE':
        return [field.name, field.choices?.[0] ?? ''];
      case 'LIST':
        return [field.name, [sampleText('', field.maxLength), sampleText('name', field.maxLength)]];
      default:
        return [field.name, sampleText(field.name, field.maxLength)];
    }
  });
}

/** JSON on one line with a space after each comma and colon, as people write it. */
function inlineJson(sample: readonly [string, SampleValue][]): string {
  const value = (item: SampleValue): string =>
    Array.isArray(item) ? `[${item.map((entry) => JSON.stringify(entry)).join(', ')}]` : JSON.stringify(item);
  return `{${sample.map(([key, item]) => `${JSON.stringify(key)}: ${value(item)}`).join(', ')}}`;
}

/** Each value as the text a form body sends: a list as one entry per item. */
function formEntries(sample: readonly [string, SampleValue][]): [string, string][] {
  return sample.flatMap(([key, item]) =>
    Array.isArray(item) ? item.map((entry): [string, string] => [key, entry]) : [[key, String(item)]],
  );
}

/** A JavaScript object literal on one line (keys quoted only where they must be). */
function jsObject(sample: readonly [string, SampleValue][]): string {
  const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
  const value = (item: SampleValue): string =>
    Array.isArray(item)
      ? `[${item.map((entry) => jsString(entry)).join(', ')}]`
      : typeof item === 'string'
        ? jsString(item)
        : String(item);
  return `{ ${sample.map(([name, item]) => `${key(name)}: ${value(item)}`).join(', ')} }`;
}

/** A single-quoted JavaScript string. */
function jsString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A Python literal (True, not true). */
function pythonValue(item: SampleValue): string {
  if (Array.isArray(item)) {
    return `[${item.map((entry) => JSON.stringify(entry)).join(', ')}]`;
  }
  return typeof item === 'boolean' ? (item ? 'True' : 'False') : JSON.stringify(item);
}

/** Form fields for requests: a list of pairs, so a list field is sent as repeated entries. */
function pythonFormData(entries: readonly [string, string][]): string {
  return `[${entries.map(([key, item]) => `(${JSON.stringify(key)}, ${JSON.stringify(item)})`).join(', ')}]`;
}

function pythonDict(sample: readonly [string, SampleValue][]): string {
  return `{${sample.map(([key, item]) => `${JSON.stringify(key)}: ${pythonValue(item)}`).join(', ')}}`;
}

export interface Example {
  /** Unique per page: also names the example's Copy button (`Copy curl (JSON) example`). */
  title: string;
  language: string;
  code: string;
}

/** A single-quoted shell word: safe whatever the text holds. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A single-quoted PHP string (no `$` interpolation). */
function phpQuote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A double-quoted string that JavaScript and Python both read the same way. */
function jsonQuote(text: string): string {
  return JSON.stringify(text);
}

export function buildExamples(endpoint: string, token: string, fields: readonly ExampleField[] = []): Example[] {
  const bearer = `Bearer ${token}`;
  const sample = sampleFields(fields);
  // The client takes the gateway's origin and the form's code apart.
  const [, gateway = endpoint, formCode = ''] = /^(.*)\/api\/v1\/send\/([^/]+)$/.exec(endpoint) ?? [];
  const entries = formEntries(sample);
  // PHP names each item of a list with brackets, which the gateway reads back as a list.
  const phpEntries = sample.flatMap(([key, item]) =>
    Array.isArray(item) ? item.map((entry, index) => [`${key}[${index}]`, entry]) : [[key, String(item)]],
  );
  // Both curl examples start the same: the POST to the endpoint with the key and token headers.
  const curlStart = [
    `curl -X POST ${shellQuote(endpoint)} \\`,
    `  -H "X-KEY-SERVICE: $INTAKE_API_KEY" \\`,
    `  -H ${shellQuote(`Authorization: ${bearer}`)} \\`,
  ];
  return [
    {
      title: 'curl (JSON)',
      language: 'shell',
      code: [...curlStart, `  -H 'Content-Type: application/json' \\`, `  -d ${shellQuote(inlineJson(sample))}`].join(
        '\n',
      ),
    },
    {
      title: 'curl (file upload)',
      language: 'shell',
      code: [
        ...curlStart,
        ...entries.map(([key, item]) => `  -F ${shellQuote(`${key}=${item}`)} \\`),
        `  -F fichier=@report.pdf`,
      ].join('\n'),
    },
    {
      title: 'Node.js (fetch)',
      language: 'javascript',
      code: [
        '// Node.js 20 or later, as an ES module (.mjs); the API key in $INTAKE_API_KEY.',
        "import { readFile } from 'node:fs/promises';",
        '',
        `const endpoint = ${jsonQuote(endpoint)};`,
        'const headers = {',
        "  'X-KEY-SERVICE': process.env.INTAKE_API_KEY,",
        `  Authorization: ${jsonQuote(bearer)},`,
        '};',
        '',
        '// Fields as JSON',
        'let response = await fetch(endpoint, {',
        "  method: 'POST',",
        "  headers: { ...headers, 'Content-Type': 'application/json' },",
        `  body: JSON.stringify(${jsObject(sample)}),`,
        '});',
        'console.log(response.status, await response.json());',
        '',
        '// Fields and a file as multipart/form-data (fetch writes the boundary)',
        'const form = new FormData();',
        ...entries.map(([key, item]) => `form.append(${jsString(key)}, ${jsString(item)});`),
        "form.append('fichier', new Blob([await readFile('report.pdf')], { type: 'application/pdf' }), 'report.pdf');",
        "response = await fetch(endpoint, { method: 'POST', headers, body: form });",
        'console.log(response.status, await response.json());',
      ].join('\n'),
    },
    {
      title: 'Node.js (@intake/client)',
      language: 'javascript',
      code: [
        '// Node.js 22 or later with @intake/client (docs/client.md): retries that never store twice,',
        '// refusals as IntakeProblem. The API key (sent as X-KEY-SERVICE) in $INTAKE_API_KEY.',
        "import { IntakeClient, IntakeProblem } from '@intake/client';",
        '',
        'const intake = new IntakeClient({',
        `  url: ${jsonQuote(gateway)},`,
        '  apiKey: process.env.INTAKE_API_KEY,',
        `  siteToken: ${jsonQuote(token)},`,
        '});',
        '',
        'try {',
        `  const result = await intake.submit(${jsonQuote(formCode)}, ${jsObject(sample)});`,
        "  console.log('stored', result.id);",
        '} catch (error) {',
        '  if (!(error instanceof IntakeProblem)) throw error;',
        '  console.error(error.status, error.code, error.detail, error.errors);',
        '}',
      ].join('\n'),
    },
    {
      title: 'PHP (curl)',
      language: 'php',
      code: [
        '<?php',
        '// PHP with the curl extension; the API key in the INTAKE_API_KEY environment variable.',
        `$ch = curl_init(${phpQuote(endpoint)});`,
        'curl_setopt_array($ch, [',
        '    CURLOPT_POST => true,',
        '    CURLOPT_RETURNTRANSFER => true,',
        '    CURLOPT_HTTPHEADER => [',
        "        'X-KEY-SERVICE: ' . getenv('INTAKE_API_KEY'),",
        `        ${phpQuote(`Authorization: ${bearer}`)},`,
        '    ],',
        '    // An array is sent as multipart/form-data; CURLFile attaches a file.',
        '    CURLOPT_POSTFIELDS => [',
        ...phpEntries.map(([key, item]) => `        ${phpQuote(key!)} => ${phpQuote(item!)},`),
        "        'fichier' => new CURLFile('report.pdf', 'application/pdf', 'report.pdf'),",
        '    ],',
        ']);',
        '$body = curl_exec($ch);',
        '$status = curl_getinfo($ch, CURLINFO_RESPONSE_CODE);',
        'curl_close($ch);',
        "echo $status, ' ', $body, PHP_EOL;",
      ].join('\n'),
    },
    {
      title: 'Python (requests)',
      language: 'python',
      code: [
        '# Python 3 with requests (pip install requests); the API key in $INTAKE_API_KEY.',
        'import os',
        '',
        'import requests',
        '',
        `endpoint = ${jsonQuote(endpoint)}`,
        'headers = {',
        '    "X-KEY-SERVICE": os.environ["INTAKE_API_KEY"],',
        `    "Authorization": ${jsonQuote(bearer)},`,
        '}',
        '',
        '# Fields as JSON',
        'response = requests.post(',
        '    endpoint,',
        '    headers=headers,',
        `    json=${pythonDict(sample)},`,
        '    timeout=30,',
        ')',
        'print(response.status_code, response.json())',
        '',
        '# Fields and a file as multipart/form-data',
        'with open("report.pdf", "rb") as report:',
        '    response = requests.post(',
        '        endpoint,',
        '        headers=headers,',
        `        data=${pythonFormData(entries)},`,
        '        files={"fichier": ("report.pdf", report, "application/pdf")},',
        '        timeout=30,',
        '    )',
        'print(response.status_code, response.json())',
      ].join('\n'),
    },
  ];
}
