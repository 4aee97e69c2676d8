// intake webhooks …: list, show, create, update, delete, rotate-secret, test.
import { type Command, Option } from 'commander';
import type { Webhook } from '../api/operations.js';
import {
  CreateWebhookDocument,
  DeleteWebhookDocument,
  RotateWebhookSecretDocument,
  SendTestWebhookDocument,
  UpdateWebhookDocument,
  WebhookDocument,
  WebhooksDocument,
} from '../gql/graphql.js';
import { confirmed } from '../confirm.js';
import { contextOf, optionsOf } from '../context.js';
import { NotFoundError, UsageError } from '../errors.js';
import type { Output } from '../output.js';

const COLUMNS = ['id', 'url', 'format', 'enabled', 'description', 'failingSince'];

// What a webhook's requests hold: the signed event, or a chat platform's message (docs/webhooks.md).
const FORMATS = ['STANDARD', 'SLACK', 'MATTERMOST', 'TEAMS', 'DISCORD', 'GOOGLE_CHAT'] as const;
type Format = (typeof FORMATS)[number];
const formatOption = () => new Option('--format <format>', 'the signed event or a chat platform').choices(FORMATS);

/** The signing secret is shown by the commands that make one (create, rotate-secret): once. */
function printWithSecret(out: Output, result: { secret: string; webhook: Webhook }) {
  out.record(result, () =>
    process.stdout.write(
      `Webhook ${result.webhook.id} → ${result.webhook.url}\nsigning secret (shown this once): ${result.secret}\n`,
    ),
  );
}

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('Webhooks of a form');

  webhooks
    .command('list')
    .requiredOption('--form <id>')
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const { form } = optionsOf<{ form: string }>(command);
      out.list((await client.request(WebhooksDocument, { formId: form })).webhooks, COLUMNS);
    });

  webhooks.command('show <id>').action(async (id: string, _options, command: Command) => {
    const { client, out } = await contextOf(command);
    const { webhook } = await client.request(WebhookDocument, { id });
    if (!webhook) {
      throw new NotFoundError(`No webhook ${id}`);
    }
    out.record(webhook);
  });

  webhooks
    .command('create')
    .requiredOption('--form <id>')
    .requiredOption('--url <url>')
    .option('--description <text>')
    .addOption(formatOption().default('STANDARD'))
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const options = optionsOf<{ form: string; url: string; description?: string; format: Format }>(command);
      const { createWebhook } = await client.request(CreateWebhookDocument, {
        input: { formId: options.form, url: options.url, description: options.description, format: options.format },
      });
      printWithSecret(out, createWebhook);
    });

  webhooks
    .command('update <id>')
    .option('--url <url>')
    .option('--description <text>', 'empty removes it')
    .addOption(formatOption())
    .addOption(new Option('--enable', 'enable (also clears a disable after failures)').conflicts('disable'))
    .option('--disable')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      const options = optionsOf<{
        url?: string;
        description?: string;
        format?: Format;
        enable?: boolean;
        disable?: boolean;
      }>(command);
      const input = {
        url: options.url,
        description: options.description,
        format: options.format,
        enabled: options.enable ? true : options.disable ? false : undefined,
      };
      out.record((await client.request(UpdateWebhookDocument, { id, input })).updateWebhook);
    });

  webhooks
    .command('delete <id>')
    .option('-y, --yes', 'do not ask')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      if (!(await confirmed(`Delete webhook ${id} and its delivery log?`, optionsOf<{ yes?: boolean }>(command).yes))) {
        throw new UsageError('Cancelled');
      }
      const { deleteWebhook } = await client.request(DeleteWebhookDocument, { id });
      if (!deleteWebhook) {
        throw new NotFoundError(`No webhook ${id}`);
      }
      out.done(`Webhook ${id} deleted`, { id, deleted: true });
    });

  webhooks
    .command('rotate-secret <id>')
    .description('A new signing secret, shown once; the old one stops signing at once')
    .option('-y, --yes', 'do not ask')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      if (
        !(await confirmed(`Rotate the signing secret of webhook ${id}?`, optionsOf<{ yes?: boolean }>(command).yes))
      ) {
        throw new UsageError('Cancelled');
      }
      const { rotateWebhookSecret } = await client.request(RotateWebhookSecretDocument, { id });
      printWithSecret(out, rotateWebhookSecret);
    });

  webhooks
    .command('test <id>')
    .description('Queue a webhook.test event, due at once')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      out.record((await client.request(SendTestWebhookDocument, { id })).sendTestWebhook);
    });
}
