// intake sites …: list, show, create, update, delete, token, rotate-token.
import type { Command } from 'commander';
import {
  CreateSiteDocument,
  DeleteSiteDocument,
  RotateSiteTokenDocument,
  SiteApiViewDocument,
  type SiteApiViewFieldsFragment,
  SiteDocument,
  SitesDocument,
  UpdateSiteDocument,
} from '../gql/graphql.js';
import { confirmed } from '../confirm.js';
import { contextOf, optionsOf } from '../context.js';
import { NotFoundError, UsageError } from '../errors.js';

const COLUMNS = ['id', 'name', 'domain', 'formCount', 'submissionsLast7Days'];

export function registerSites(program: Command): void {
  const sites = program.command('sites').description('Sites and their tokens');

  sites
    .command('list')
    .description('Live sites, oldest first')
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      out.list((await client.request(SitesDocument)).sites, COLUMNS);
    });

  sites.command('show <id>').action(async (id: string, _options, command: Command) => {
    const { client, out } = await contextOf(command);
    const { site } = await client.request(SiteDocument, { id });
    if (!site) {
      throw new NotFoundError(`No site ${id}`);
    }
    out.record(site);
  });

  sites
    .command('create')
    .requiredOption('--name <name>')
    .option('--domain <host>', 'a host name such as example.com')
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const { name, domain } = optionsOf<{ name: string; domain?: string }>(command);
      out.record((await client.request(CreateSiteDocument, { input: { name, domain } })).createSite);
    });

  sites
    .command('update <id>')
    .option('--name <name>')
    .option('--domain <host>')
    .option('--no-domain', 'remove the domain')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      const options = optionsOf<{ name?: string; domain?: string | false }>(command);
      const input: Record<string, unknown> = {};
      if (options.name !== undefined) {
        input.name = options.name;
      }
      if (options.domain !== undefined) {
        input.domain = options.domain === false ? null : options.domain;
      }
      out.record((await client.request(UpdateSiteDocument, { id, input })).updateSite);
    });

  sites
    .command('delete <id>')
    .description('Soft delete: its forms go too, submissions are kept')
    .option('-y, --yes', 'do not ask')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      if (!(await confirmed(`Delete site ${id} and its forms?`, optionsOf<{ yes?: boolean }>(command).yes))) {
        throw new UsageError('Cancelled');
      }
      const { deleteSite } = await client.request(DeleteSiteDocument, { id });
      if (!deleteSite) {
        throw new NotFoundError(`No site ${id}`);
      }
      out.done(`Site ${id} deleted`, { id, deleted: true });
    });

  const printView = (view: SiteApiViewFieldsFragment, out: Awaited<ReturnType<typeof contextOf>>['out']) =>
    out.record(view, () => {
      process.stdout.write(`token: ${view.token}\n`);
      for (const form of view.forms) {
        process.stdout.write(`form ${JSON.stringify(form.name)}: code ${form.code}, endpoint ${form.endpointUrl}\n`);
      }
    });

  sites
    .command('token <id>')
    .description("The site's token (for its backend) and its forms' endpoints")
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      printView((await client.request(SiteApiViewDocument, { siteId: id })).siteApiView, out);
    });

  sites
    .command('rotate-token <id>')
    .description('A new site token: every earlier one stops working at once')
    .option('-y, --yes', 'do not ask')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      if (
        !(await confirmed(
          `Rotate the token of site ${id}? Every earlier token stops working.`,
          optionsOf<{ yes?: boolean }>(command).yes,
        ))
      ) {
        throw new UsageError('Cancelled');
      }
      printView((await client.request(RotateSiteTokenDocument, { siteId: id })).rotateSiteToken, out);
    });
}
