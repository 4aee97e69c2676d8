import { describe, expect, it } from '@jest/globals';
import { buildExamples } from './examples.js';

const ENDPOINT = 'https://intake.example.com/api/v1/send/abc123';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJ2IjoxfQ.c2lnbmF0dXJl';

describe('buildExamples', () => {
  const examples = buildExamples(ENDPOINT, TOKEN);

  it('gives six distinctly named examples, each with the endpoint and the token', () => {
    expect(examples.map((example) => example.title)).toEqual([
      'curl (JSON)',
      'curl (file upload)',
      'Node.js (fetch)',
      'Node.js (@intake/client)',
      'PHP (curl)',
      'Python (requests)',
    ]);
    for (const example of examples) {
      // The client takes the gateway and the form's code apart.
      const endpoint =
        example.title === 'Node.js (@intake/client)' ? ['https://intake.example.com', '"abc123"'] : [ENDPOINT];
      for (const part of endpoint) {
        expect(example.code).toContain(part);
      }
      expect(example.code).toContain(
        example.title.includes('@intake/client') ? `siteToken: "${TOKEN}"` : `Bearer ${TOKEN}`,
      );
      expect(example.code).toContain('INTAKE_API_KEY');
      expect(example.code).toContain('X-KEY-SERVICE');
    }
  });

  it('leaves the API key to the environment and sends the file in fichier', () => {
    const [json, file] = examples;
    expect(json!.code).toContain('-H "X-KEY-SERVICE: $INTAKE_API_KEY"');
    expect(file!.code).toContain('-F fichier=@report.pdf');
  });

  it("uses the form's declared fields, in order, with a value each takes", () => {
    const fields = [
      { name: 'full name', type: 'TEXT' as const, maxLength: 3 },
      { name: 'email', type: 'EMAIL' as const },
      { name: 'age', type: 'NUMBER' as const },
      { name: 'subscribe', type: 'BOOLEAN' as const },
      { name: 'topic', type: 'CHOICE' as const, choices: ["it's", 'other'] },
      { name: 'tags', type: 'LIST' as const },
    ];
    const [json, file, node, client, php, python] = buildExamples(ENDPOINT, TOKEN, fields);
    expect(client!.code).toContain(`intake.submit("abc123", { "full name": 'Ada', email: 'ada@example.com'`);
    expect(json!.code).toContain(
      `-d '{"full name": "Ada", "email": "ada@example.com", "age": 42, "subscribe": true, "topic": "it'\\''s", "tags": ["Hello", "Ada Lovelace"]}'`,
    );
    expect(file!.code).toContain(`-F 'age=42' \\\n  -F 'subscribe=true'`);
    expect(file!.code).toContain(`-F 'tags=Hello' \\\n  -F 'tags=Ada Lovelace'`);
    expect(node!.code).toContain(
      `JSON.stringify({ "full name": 'Ada', email: 'ada@example.com', age: 42, subscribe: true, topic: 'it\\'s', tags: ['Hello', 'Ada Lovelace'] })`,
    );
    expect(php!.code).toContain(`'tags[1]' => 'Ada Lovelace',`);
    expect(python!.code).toContain(`"subscribe": True`);
    expect(python!.code).toContain(`("tags", "Hello"), ("tags", "Ada Lovelace")`);
  });

  it('quotes what it fills in, so a quote in the URL cannot end the string early', () => {
    const [json, , node, , php, python] = buildExamples("https://x.example/it's", TOKEN);
    expect(json!.code).toContain(`curl -X POST 'https://x.example/it'\\''s'`);
    expect(node!.code).toContain(`const endpoint = "https://x.example/it's";`);
    expect(php!.code).toContain(`curl_init('https://x.example/it\\'s')`);
    expect(python!.code).toContain(`endpoint = "https://x.example/it's"`);
  });
});
