// intake tokens …: API tokens (list, show, create, revoke). A token cannot be changed once made:
// revoke it and create another.
import { type Command, Option } from 'commander';
import {
  type ApiTokenLevel,
  ApiTokensDocument,
  CreateApiTokenDocument,
  RevokeApiTokenDocument,
} from '../gql/graphql.js';
import { confirmed } from '../confirm.js';
import { contextOf, optionsOf } from '../context.js';
import { NotFoundError, UsageError } from '../errors.js';

const COLUMNS = ['id', 'name', 'level', 'siteIds', 'expiresAt', 'lastUsedAt'];
const list = (value: string, previous: string[] = []) => [...previous, value];

interface CreateOptions {
  name: string;
  level?: ApiTokenLevel;
  site?: string[];
  expiresInDays?: string;
  expiresAt?: string;
  noExpiry?: boolean;
}

export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('API tokens for integrations (docs/teams.md)');

  tokens.command('list').action(async (_options, command: Command) => {
    const { client, out } = await contextOf(command);
    out.list((await client.request(ApiTokensDocument)).apiTokens, COLUMNS);
  });

  tokens.command('show <id>').action(async (id: string, _options, command: Command) => {
    const { client, out } = await contextOf(command);
    const token = (await client.request(ApiTokensDocument)).apiTokens.find((item) => item.id === id);
    if (!token) {
      throw new NotFoundError(`No live API token ${id}`);
    }
    out.record(token);
  });

  tokens
    .command('create')
    .description('Needs a login session token, not an API token (the API answers FORBIDDEN otherwise)')
    .requiredOption('--name <name>')
    .addOption(new Option('--level <level>').choices(['READ', 'MANAGE', 'ADMIN']))
    .option('--site <id>', 'the only sites it reaches (repeat)', list)
    .option('--expires-in-days <days>')
    .option('--expires-at <iso>')
    .option('--no-expiry', 'never ends (owners only)')
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const options = optionsOf<CreateOptions & { expiry?: boolean }>(command);
      const scope = {
        level: options.level,
        siteIds: options.site,
        expiresInDays: options.expiresInDays === undefined ? undefined : Number(options.expiresInDays),
        expiresAt: options.expiresAt,
        noExpiry: options.expiry === false ? true : undefined,
      };
      const { createApiToken } = await client.request(CreateApiTokenDocument, { name: options.name, scope });
      out.record(createApiToken, () =>
        process.stdout.write(
          `API token ${createApiToken.apiToken.id} (${createApiToken.apiToken.level}, ends ${createApiToken.apiToken.expiresAt ?? 'never'})\n` +
            `token (shown this once): ${createApiToken.token}\n`,
        ),
      );
    });

  tokens
    .command('revoke <id>')
    .alias('delete')
    .description('The token stops working at once')
    .option('-y, --yes', 'do not ask')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      if (!(await confirmed(`Revoke API token ${id}?`, optionsOf<{ yes?: boolean }>(command).yes))) {
        throw new UsageError('Cancelled');
      }
      const { revokeApiToken } = await client.request(RevokeApiTokenDocument, { id });
      if (!revokeApiToken) {
        throw new NotFoundError(`No live API token ${id}`);
      }
      out.done(`API token ${id} revoked`, { id, revoked: true });
    });
}
