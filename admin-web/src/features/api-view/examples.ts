// Ready-to-paste requests for a site backend: the endpoint and the site token filled in, the API key
// left as the INTAKE_API_KEY environment variable (it is a server secret the console never sees).

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

export function buildExamples(endpoint: string, token: string): Example[] {
  const bearer = `Bearer ${token}`;
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
      code: [
        ...curlStart,
        `  -H 'Content-Type: application/json' \\`,
        `  -d '{"name": "Ada Lovelace", "email": "ada@example.com", "message": "Hello"}'`,
      ].join('\n'),
    },
    {
      title: 'curl (file upload)',
      language: 'shell',
      code: [
        ...curlStart,
        `  -F 'name=Ada Lovelace' \\`,
        `  -F email=ada@example.com \\`,
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
        "  body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello' }),",
        '});',
        'console.log(response.status, await response.json());',
        '',
        '// Fields and a file as multipart/form-data (fetch writes the boundary)',
        'const form = new FormData();',
        "form.append('name', 'Ada Lovelace');",
        "form.append('fichier', new Blob([await readFile('report.pdf')], { type: 'application/pdf' }), 'report.pdf');",
        "response = await fetch(endpoint, { method: 'POST', headers, body: form });",
        'console.log(response.status, await response.json());',
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
        "        'name' => 'Ada Lovelace',",
        "        'email' => 'ada@example.com',",
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
        '    json={"name": "Ada Lovelace", "email": "ada@example.com", "message": "Hello"},',
        '    timeout=30,',
        ')',
        'print(response.status_code, response.json())',
        '',
        '# Fields and a file as multipart/form-data',
        'with open("report.pdf", "rb") as report:',
        '    response = requests.post(',
        '        endpoint,',
        '        headers=headers,',
        '        data={"name": "Ada Lovelace"},',
        '        files={"fichier": ("report.pdf", report, "application/pdf")},',
        '        timeout=30,',
        '    )',
        'print(response.status_code, response.json())',
      ].join('\n'),
    },
  ];
}
