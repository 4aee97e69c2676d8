// intake login / logout / profiles / whoami: stored profiles and the account behind a token.
import { password } from '@inquirer/prompts';
import type { Command } from 'commander';
import { AdminClient } from '../api/client.js';
import { MeDocument } from '../gql/graphql.js';
import { adminUrlFromEnv, configPath, readConfig, writeConfig } from '../config/profiles.js';
import { interactive } from '../confirm.js';
import { contextOf, optionsOf, outputOf, type GlobalOptions } from '../context.js';
import { UsageError } from '../errors.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8').trim();
}

export function registerLogin(program: Command): void {
  program
    .command('login')
    .description('Check an API token against an admin URL and store both as a profile (mode 0600)')
    .option('--url <url>', 'the admin API, e.g. https://admin.example.com (default: INTAKE_ADMIN_URL)')
    .option('--token-stdin', 'read the API token from standard input (default: INTAKE_TOKEN, else asked)')
    .action(async (_options, command: Command) => {
      const options = optionsOf<{ url?: string; tokenStdin?: boolean }>(command);
      const { profile = 'default' } = command.optsWithGlobals() as GlobalOptions;
      const fromEnv = options.url === undefined ? adminUrlFromEnv() : undefined;
      const url = options.url ?? fromEnv?.url;
      if (!url) {
        throw new UsageError('Give the admin URL: intake login --url https://admin.example.com');
      }
      let token = options.tokenStdin ? await readStdin() : process.env.INTAKE_TOKEN;
      if (!token && interactive()) {
        token = await password({ message: 'API token (itk_…)', mask: true });
      }
      if (!token) {
        throw new UsageError('Give the API token on standard input (--token-stdin) or in INTAKE_TOKEN');
      }
      const source = fromEnv?.variable ?? '--url';
      const { me } = await new AdminClient({ url, token, source }).request(MeDocument);
      const config = await readConfig();
      config.profiles[profile] = { url, token };
      config.current ??= profile;
      await writeConfig(config);
      outputOf(command).done(`Signed in to ${url} as ${me.email} (profile ${profile}, stored in ${configPath()})`, {
        profile,
        url,
        email: me.email,
        role: me.role,
        current: config.current === profile,
      });
    });

  program
    .command('logout')
    .description('Forget a stored profile (the token itself stays valid: revoke it with intake tokens revoke)')
    .action(async (_options, command: Command) => {
      const { profile } = command.optsWithGlobals() as GlobalOptions;
      const config = await readConfig();
      const name = profile ?? config.current;
      if (!name || !config.profiles[name]) {
        throw new UsageError(`No profile named ${name ?? '(none)'}`);
      }
      delete config.profiles[name];
      if (config.current === name) {
        config.current = Object.keys(config.profiles)[0];
      }
      await writeConfig(config);
      outputOf(command).done(`Profile ${name} forgotten`, { profile: name, removed: true });
    });

  const profiles = program.command('profiles').description('Stored profiles (never their tokens)');
  profiles
    .command('list', { isDefault: true })
    .description('List the stored profiles')
    .action(async (_options, command: Command) => {
      const config = await readConfig();
      const rows = Object.entries(config.profiles).map(([name, { url }]) => ({
        name,
        url,
        current: name === config.current,
      }));
      outputOf(command).list(rows, ['name', 'url', 'current']);
    });
  profiles
    .command('use <name>')
    .description('Make a stored profile the current one')
    .action(async (name: string, _options, command: Command) => {
      const config = await readConfig();
      if (!config.profiles[name]) {
        throw new UsageError(`No profile named ${name}`);
      }
      config.current = name;
      await writeConfig(config);
      outputOf(command).done(`Now using profile ${name}`, { current: name });
    });

  program
    .command('whoami')
    .description('The member behind the token')
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const { me } = await client.request(MeDocument);
      out.record({ ...me, url: client.connection.url });
    });
}
