// A site's API view in Chromium: the token hidden until asked for, copied, used at the real gateway;
// each form's code and endpoint; examples with the token and endpoint filled in and the API key left
// out; Rotate token behind a confirmation, after which the gateway refuses the old token.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { pdf } from '@intake/test-files';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: a site API view', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;

  const post = (endpoint: string, token: string, body: Record<string, unknown>) =>
    fetch(endpoint, {
      method: 'POST',
      headers: { 'X-KEY-SERVICE': env.apiKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  const shownToken = async (): Promise<string> => {
    const token = (await page.getByTestId('site-token').innerText()).trim();
    expect(token).not.toMatch(/•/);
    return token;
  };

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    const created = await env.gql<{ createSite: { id: string } }>(
      'mutation { createSite(input: { name: "Acme Shop" }) { id } }',
    );
    siteId = created.data!.createSite.id;
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('says how to create a form when the site has none', async () => {
    await page.goto(`${env.url}/sites/${siteId}/api`);
    await expectHeading(page, 'API');
    await page.getByText('This site has no forms yet').waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'API view, no form'));
    await page.getByRole('main').getByRole('link', { name: 'Forms', exact: true }).last().click();
    await expectHeading(page, 'Forms');
  });

  it('shows the token only when asked, copies it, and it works at the gateway with each form endpoint', async () => {
    const forms: { id: string; code: string; endpointUrl: string }[] = [];
    for (const name of ['Contact', 'Quote request']) {
      const result = await env.gql<{ createForm: { id: string; code: string; endpointUrl: string } }>(
        'mutation ($siteId: ID!, $name: String!) { createForm(input: { siteId: $siteId, name: $name }) { id code endpointUrl } }',
        { siteId, name },
      );
      forms.push(result.data!.createForm);
    }
    await page.goto(`${env.url}/sites/${siteId}/api`);
    await expectHeading(page, 'API');
    // Hidden at first: no token (a JWT, `eyJ…`) in the page's text.
    await page.getByRole('button', { name: 'Show token' }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('eyJ');
    await page.getByRole('button', { name: 'Show token' }).click();
    const token = await shownToken();
    expect(token).toMatch(/^eyJ[\w.-]+$/);
    await page.getByRole('button', { name: 'Hide token' }).waitFor();

    // The first Copy in the page is the token's.
    await page.getByRole('button', { name: 'Copy' }).first().click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(token);

    // Each form's code and full endpoint URL, in its row, with its own Copy.
    for (const [index, name] of ['Contact', 'Quote request'].entries()) {
      const form = forms[index]!;
      expect(form.endpointUrl).toBe(`${env.gatewayUrl}/api/v1/send/${form.code}`);
      const row = page.getByRole('row', { name: new RegExp(name) });
      await row.getByText(form.code, { exact: true }).waitFor();
      await row.getByText(form.endpointUrl, { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Copy endpoint URL' }).click();
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(form.endpointUrl);
      // The token and the endpoint read on the page are what a backend needs.
      const answer = await post(form.endpointUrl, token, { name: 'Ada', message: `Hello ${name}` });
      expect(answer.status).toBe(201);
    }
    await atBothWidths(page, () => checkAccessibility(page, 'API view with forms'));
  });

  it('fills the examples in for the chosen form, with the API key left as $INTAKE_API_KEY', async () => {
    const [contact, quote] = (
      await env.gql<{ forms: { code: string; endpointUrl: string }[] }>(
        'query ($siteId: ID!) { forms(siteId: $siteId) { code endpointUrl } }',
        { siteId },
      )
    ).data!.forms;
    const token = await shownToken();
    const examples = page.getByRole('region', { name: 'Examples' });
    const titles = ['curl (JSON)', 'curl (file upload)', 'Node.js (fetch)', 'PHP (curl)', 'Python (requests)'];
    const copied = async (title: string) => {
      await examples.getByRole('button', { name: `Copy ${title} example` }).click();
      return page.evaluate(() => navigator.clipboard.readText());
    };
    for (const title of titles) {
      const code = await copied(title);
      expect(code).toContain(contact!.endpointUrl);
      expect(code).toContain(token);
      expect(code).not.toContain(env.apiKey);
      expect(await examples.innerText()).toContain(code.split('\n')[0]);
    }
    expect(await copied('curl (JSON)')).toContain('-H "X-KEY-SERVICE: $INTAKE_API_KEY"');
    expect(await copied('curl (file upload)')).toContain('-F fichier=@report.pdf');
    expect(await copied('Node.js (fetch)')).toMatch(/FormData[\s\S]*'fichier'/);
    expect(await copied('PHP (curl)')).toContain("new CURLFile('report.pdf'");
    expect(await copied('Python (requests)')).toContain('import requests');

    // Another form: its endpoint in every example.
    await examples.getByRole('combobox', { name: 'Form' }).click();
    await page.getByRole('option', { name: new RegExp(`Quote request \\(${quote!.code}\\)`) }).click();
    for (const title of titles) {
      const code = await copied(title);
      expect(code).toContain(quote!.endpointUrl);
      expect(code).not.toContain(contact!.endpointUrl);
    }
    expect(await page.content()).not.toContain(env.apiKey);
  });

  it('runs the curl, Node and Python examples as pasted: each one stores its submissions', async () => {
    const run = promisify(execFile);
    const available = async (command: string, args: string[]) =>
      run(command, args, { timeout: 10000 }).then(
        () => true,
        () => false,
      );
    const examples = page.getByRole('region', { name: 'Examples' });
    const copied = async (title: string) => {
      await examples.getByRole('button', { name: `Copy ${title} example` }).click();
      return page.evaluate(() => navigator.clipboard.readText());
    };
    const formId = (
      await env.gql<{ forms: { id: string; name: string }[] }>(
        'query ($siteId: ID!) { forms(siteId: $siteId) { id name } }',
        {
          siteId,
        },
      )
    ).data!.forms.find((form) => form.name === 'Quote request')!.id;
    const stored = async () =>
      (
        await env.gql<{ submissions: { edges: { node: { files: { name: string }[] } }[] } }>(
          'query ($formId: ID!) { submissions(formId: $formId, first: 100) { edges { node { files { name } } } } }',
          { formId },
        )
      ).data!.submissions.edges.map((edge) => edge.node);

    const dir = await mkdtemp(path.join(tmpdir(), 'intake-examples-'));
    try {
      await writeFile(path.join(dir, 'report.pdf'), pdf());
      const options = { cwd: dir, timeout: 20000, env: { ...process.env, INTAKE_API_KEY: env.apiKey } };
      const runs: [string, string, string[], number][] = [
        ['curl (JSON)', 'sh', ['-c'], 1],
        ['curl (file upload)', 'sh', ['-c'], 1],
        ['Node.js (fetch)', process.execPath, [], 2],
        ['Python (requests)', 'python3', [], 2],
      ];
      // curl and Python with requests are usual on a server; where one is missing, its example is not run.
      const tools: Record<string, boolean> = {
        sh: await available('curl', ['--version']),
        [process.execPath]: true,
        python3: await available('python3', ['-c', 'import requests']),
      };
      let expected = (await stored()).length;
      let ran = 0;
      for (const [title, command, args, submissions] of runs) {
        if (!tools[command]) {
          continue;
        }
        const code = await copied(title);
        if (command === 'sh') {
          await run(command, [...args, code], options);
        } else {
          const file = path.join(dir, command === 'python3' ? 'example.py' : 'example.mjs');
          await writeFile(file, code);
          const { stdout } = await run(command, [file], options);
          expect(stdout.split('\n').filter((line) => line.startsWith('201 '))).toHaveLength(2);
        }
        expected += submissions;
        expect((await stored()).length).toBe(expected);
        ran += 1;
      }
      expect(ran).toBeGreaterThanOrEqual(2);
      // The file examples sent report.pdf in the field fichier.
      const files = (await stored()).flatMap((submission) => submission.files.map((file) => file.name));
      expect(files).toContain('report.pdf');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('works from the keyboard: Show token, and the rotation dialog opens on Cancel and closes with Escape', async () => {
    await page.reload();
    await expectHeading(page, 'API');
    const focusedName = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return element?.getAttribute('aria-label') ?? element?.innerText.trim() ?? '';
      });
    const tabTo = async (name: string) => {
      for (let step = 0; step < 40; step += 1) {
        await page.keyboard.press('Tab');
        if ((await focusedName()) === name) {
          return;
        }
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await tabTo('Show token');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Hide token' }).waitFor();
    expect(await page.getByTestId('site-token').innerText()).toMatch(/^eyJ/);
    await tabTo('Rotate token');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rotate the site token?' });
    await dialog.waitFor();
    // Enter on the focused button must not rotate by accident: Cancel has the focus.
    await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.innerText.trim() === 'Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('rotates the token after a confirmation; the old one is refused at the gateway, the new one accepted', async () => {
    const [contact] = (
      await env.gql<{ forms: { endpointUrl: string }[] }>(
        'query ($siteId: ID!) { forms(siteId: $siteId) { endpointUrl } }',
        {
          siteId,
        },
      )
    ).data!.forms;
    const oldToken = await shownToken();

    await page.getByRole('region', { name: 'Site token' }).getByRole('button', { name: 'Rotate token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the site token?' });
    await dialog.getByText(/stops working at once/).waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'rotate token dialog'));
    // Cancel leaves the token as it was.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await post(contact!.endpointUrl, oldToken, { a: '1' })).status).toBe(201);

    await page.getByRole('region', { name: 'Site token' }).getByRole('button', { name: 'Rotate token' }).click();
    await dialog.getByRole('button', { name: 'Rotate token' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('New site token issued').waitFor();
    await page.waitForFunction((old) => {
      const text = document.querySelector('[data-testid="site-token"]')?.textContent ?? old;
      return text !== old && !text.includes('•');
    }, oldToken);
    const newToken = await shownToken();

    const refused = await post(contact!.endpointUrl, oldToken, { a: '1' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('token_invalid');
    expect((await post(contact!.endpointUrl, newToken, { a: '1' })).status).toBe(201);

    // After a reload the page shows a token of the new generation (each read mints one): it works.
    await page.reload();
    await expectHeading(page, 'API');
    await page.getByRole('button', { name: 'Show token' }).click();
    const reloaded = await shownToken();
    expect(reloaded).not.toBe(oldToken);
    expect((await post(contact!.endpointUrl, reloaded, { a: '1' })).status).toBe(201);
  });
});
