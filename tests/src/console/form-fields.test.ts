// A form's declared fields in Chromium (docs/form-fields.md): added, edited, ordered and removed in
// the settings' Fields card, with mistakes shown next to their inputs; then the API view's examples
// use them (the curl one run as pasted is stored), the gateway refuses a submission that breaks them,
// and the inbox shows them as its columns, in order.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  describedBy,
  eventually,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: the Fields card of a form', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let formCode: string;

  const formUrl = (view = '') => `${env.url}/sites/${siteId}/forms/${formId}${view}`;
  const rows = () => page.getByTestId('declared-field');
  const row = (index: number) => page.getByRole('group', { name: `Field ${index + 1}` });
  const save = async () => {
    await page.getByRole('button', { name: 'Save settings' }).click();
  };
  const storedFields = async () =>
    (
      await env.gql<{ form: { fields: { name: string; type: string; required: boolean }[]; unknownFields: string } }>(
        'query ($id: ID!) { form(id: $id) { fields { name type required } unknownFields } }',
        { id: formId },
      )
    ).data!.form;
  async function chooseType(index: number, label: string): Promise<void> {
    await row(index).getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: label, exact: true }).click();
  }

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Acme Shop'));
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('adds, edits, orders and removes fields, with mistakes next to their inputs', async () => {
    await page.goto(formUrl('/settings'));
    await expectHeading(page, 'Form settings');
    await page.getByRole('heading', { name: 'Fields' }).waitFor();
    await page.getByTestId('no-declared-fields').waitFor();

    const add = page.getByRole('button', { name: 'Add field' });
    await add.click();
    await add.click();
    await add.click();
    await add.click();
    expect(await rows().count()).toBe(4);
    await row(0).getByRole('textbox', { name: 'Name' }).fill('email');
    await chooseType(0, 'E-mail address');
    await row(0).getByRole('checkbox', { name: 'Required' }).check();
    await row(1).getByRole('textbox', { name: 'Name' }).fill('topic');
    await chooseType(1, 'Choice from a list');
    // A choice without choices, and a name left empty, are said next to their inputs; nothing is sent.
    await save();
    await eventually(
      async () => describedBy(row(1).getByRole('textbox', { name: 'Choices' })),
      'Enter the choices, one a line',
    );
    expect(await describedBy(row(2).getByRole('textbox', { name: 'Name' }))).toContain('Enter a name');
    expect((await storedFields()).fields).toEqual([]);

    await row(1).getByRole('textbox', { name: 'Choices' }).fill('sales\nsupport');
    await row(2).getByRole('textbox', { name: 'Name' }).fill('message');
    await row(2).getByRole('textbox', { name: 'Maximum length (characters)' }).fill('500');
    // The API's refusal of a name declared twice shows next to that name.
    await row(3).getByRole('textbox', { name: 'Name' }).fill('email');
    await save();
    await eventually(
      async () => /declared twice/i.test(await describedBy(row(3).getByRole('textbox', { name: 'Name' }))),
      true,
    );
    expect((await storedFields()).fields).toEqual([]);
    await atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, 'form settings with declared fields');
    });

    // Remove the repeat, move message above topic, drop undeclared fields.
    await page.getByRole('button', { name: 'Remove email' }).last().click();
    await page.getByRole('button', { name: 'Move message up' }).click();
    await page.getByRole('radio', { name: 'Leave them out and store the rest' }).check();
    await save();
    await page.getByText('Settings saved').waitFor();
    expect(await storedFields()).toEqual({
      fields: [
        { name: 'email', type: 'EMAIL', required: true },
        { name: 'message', type: 'TEXT', required: false },
        { name: 'topic', type: 'CHOICE', required: false },
      ],
      unknownFields: 'DROP',
    });
    // After a reload the card shows what was stored, in order.
    await page.reload();
    await page.getByRole('heading', { name: 'Fields' }).waitFor();
    const names = await rows().evaluateAll((fieldsets) =>
      fieldsets.map((fieldset) => (fieldset.querySelector('input') as HTMLInputElement).value),
    );
    expect(names).toEqual(['email', 'message', 'topic']);
    expect(await row(2).getByRole('textbox', { name: 'Choices' }).inputValue()).toBe('sales\nsupport');
  });

  it('gives the API view examples with the declared fields; the curl and @intake/client ones are stored as pasted', async () => {
    await page.goto(`${env.url}/sites/${siteId}/api`);
    await expectHeading(page, 'API');
    await page.getByRole('button', { name: 'Show token' }).click();
    const examples = page.getByRole('region', { name: 'Examples' });
    await examples.getByRole('button', { name: 'Copy curl (JSON) example' }).click();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toContain(`-d '{"email": "ada@example.com", "message": "Hello", "topic": "sales"}'`);
    const run = promisify(execFile);
    const { stdout } = await run('sh', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`], {
      timeout: 20000,
      env: { ...process.env, INTAKE_API_KEY: env.apiKey },
    });
    expect(stdout).toBe('201');

    // The client example, run where `@intake/client` resolves to this repository's build (as it would
    // in a backend that installed the package).
    await examples.getByRole('button', { name: 'Copy Node.js (@intake/client) example' }).click();
    const clientExample = await page.evaluate(() => navigator.clipboard.readText());
    expect(clientExample).toContain(
      `intake.submit("${formCode}", { email: 'ada@example.com', message: 'Hello', topic: 'sales' })`,
    );
    const cache = fileURLToPath(new URL('../../../node_modules/.cache/', import.meta.url));
    await mkdir(cache, { recursive: true });
    const dir = await mkdtemp(path.join(cache, 'intake-client-example-'));
    try {
      await writeFile(path.join(dir, 'example.mjs'), clientExample);
      const ran = await run(process.execPath, [path.join(dir, 'example.mjs')], {
        timeout: 20000,
        env: { ...process.env, INTAKE_API_KEY: env.apiKey },
      });
      expect(ran.stdout).toMatch(/^stored [0-9a-f-]{36}\n$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a submission that breaks the fields, and shows the fields as the inbox columns', async () => {
    const refused = await env.sendSubmission(siteId, formCode, { email: 'not an address', topic: 'billing' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: 'fields_invalid',
      errors: [
        { path: 'email', reason: 'must be an e-mail address' },
        { path: 'topic', reason: 'is not one of the choices' },
      ],
    });
    const accepted = await env.sendSubmission(siteId, formCode, {
      topic: 'support',
      email: 'grace@example.com',
      extra: 'dropped',
    });
    expect(accepted.status).toBe(201);

    await page.goto(formUrl());
    await page.getByRole('row', { name: /grace@example\.com/ }).waitFor();
    const headers = await page.getByRole('columnheader').allInnerTexts();
    const fieldHeaders = headers.filter((header) => ['email', 'message', 'topic', 'extra'].includes(header));
    expect(fieldHeaders).toEqual(['email', 'message', 'topic']);
  });
});
