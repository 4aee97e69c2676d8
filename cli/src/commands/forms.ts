// intake forms …: list, show, create, update, delete.
import { type Command, Option } from 'commander';
import type { UpdateFormInput } from '../api/operations.js';
import {
  CreateFormDocument,
  DeleteFormDocument,
  FormDocument,
  FormsDocument,
  UpdateFormDocument,
} from '../gql/graphql.js';
import { confirmed } from '../confirm.js';
import { contextOf, optionsOf } from '../context.js';
import { NotFoundError, UsageError } from '../errors.js';

const COLUMNS = ['id', 'name', 'code', 'enabled', 'submissionCount', 'endpointUrl'];

const list = (value: string, previous: string[] = []) => [...previous, value];
const integer = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number)) {
    throw new UsageError(`${value} is not a whole number`);
  }
  return number;
};
// Commander turns a parser's null into '', so `none` stays a word until the input is built.
const integerOrNone = (value: string): number | 'none' => (value === 'none' ? 'none' : integer(value));
const orNull = (value: number | 'none' | undefined) => (value === 'none' ? null : value);

interface UpdateOptions {
  name?: string;
  enabled?: boolean;
  allowType?: string[];
  maxFileSize?: number | 'none';
  retentionDays?: number | 'none';
  honeypot?: string[];
  blockedWord?: string[];
  maxLinks?: number | 'none';
  duplicateWindow?: number | 'none';
}

export function registerForms(program: Command): void {
  const forms = program.command('forms').description('Forms of a site and their settings');

  forms
    .command('list')
    .requiredOption('--site <id>')
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const { site } = optionsOf<{ site: string }>(command);
      out.list((await client.request(FormsDocument, { siteId: site })).forms, COLUMNS);
    });

  forms.command('show <id>').action(async (id: string, _options, command: Command) => {
    const { client, out } = await contextOf(command);
    const { form } = await client.request(FormDocument, { id });
    if (!form) {
      throw new NotFoundError(`No form ${id}`);
    }
    out.record(form);
  });

  forms
    .command('create')
    .requiredOption('--site <id>')
    .requiredOption('--name <name>')
    .option('--notify <email>', 'an address told of every submission (repeat)', list)
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const options = optionsOf<{ site: string; name: string; notify?: string[] }>(command);
      const { createForm } = await client.request(CreateFormDocument, {
        input: { siteId: options.site, name: options.name, notifyEmails: options.notify },
      });
      out.record(createForm, () =>
        process.stdout.write(
          `Form ${createForm.id} created: code ${createForm.code}, endpoint ${createForm.endpointUrl}\n`,
        ),
      );
    });

  forms
    .command('update <id>')
    .description('Change the given settings; the others stay (setup files manage the rest: intake apply)')
    .option('--name <name>')
    .addOption(new Option('--enable', 'accept submissions').conflicts('disable'))
    .option('--disable', 'refuse submissions (403 form_forbidden)')
    .option('--notify <email>', 'replace the notified addresses (repeat)', list)
    .option('--no-notify', 'notify nobody')
    .option('--allow-type <mime>', 'replace the allowed file types (repeat)', list)
    .option('--max-file-size <bytes>', 'bytes per file, or none for MAX_FILE_SIZE', integerOrNone)
    .option('--retention-days <days>', 'days kept, or none for ever', integerOrNone)
    .option('--honeypot <field>', 'replace the honeypot fields (repeat)', list)
    .option('--blocked-word <word>', 'replace the blocked words (repeat)', list)
    .option('--max-links <count>', 'more links is spam, or none', integerOrNone)
    .option('--duplicate-window <seconds>', 'duplicate filter, or none', integerOrNone)
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      const options = optionsOf<UpdateOptions & { enable?: boolean; disable?: boolean; notify?: string[] | false }>(
        command,
      );
      const input: UpdateFormInput = {
        name: options.name,
        enabled: options.enable ? true : options.disable ? false : undefined,
        notifyEmails: options.notify === false ? [] : options.notify,
        allowedMimeTypes: options.allowType,
        maxFileSize: orNull(options.maxFileSize),
        retentionDays: orNull(options.retentionDays),
        honeypotFields: options.honeypot,
        blockedWords: options.blockedWord,
        maxLinks: orNull(options.maxLinks),
        duplicateWindowSeconds: orNull(options.duplicateWindow),
      };
      out.record((await client.request(UpdateFormDocument, { id, input })).updateForm);
    });

  forms
    .command('delete <id>')
    .description('Soft delete: its submissions are kept')
    .option('-y, --yes', 'do not ask')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      if (!(await confirmed(`Delete form ${id}?`, optionsOf<{ yes?: boolean }>(command).yes))) {
        throw new UsageError('Cancelled');
      }
      const { deleteForm } = await client.request(DeleteFormDocument, { id });
      if (!deleteForm) {
        throw new NotFoundError(`No form ${id}`);
      }
      out.done(`Form ${id} deleted`, { id, deleted: true });
    });
}
