// intake submissions …: list (with the search filters), show, delete.
import type { Command } from 'commander';
import { DeleteSubmissionDocument, SubmissionDocument, SubmissionsDocument } from '../gql/graphql.js';
import { confirmed } from '../confirm.js';
import { contextOf, optionsOf } from '../context.js';
import { NotFoundError, UsageError } from '../errors.js';
import { addFilterOptions, filterOf, type FilterOptions } from './filters.js';

export function registerSubmissions(program: Command): void {
  const submissions = program.command('submissions').description("A form's submissions");

  addFilterOptions(
    submissions
      .command('list')
      .description('Newest first, one page (--first, then --after the printed cursor)')
      .requiredOption('--form <id>')
      .option('--first <count>', '0 to 100', '20')
      .option('--after <cursor>', 'the cursor a previous page ended with'),
  ).action(async (_options, command: Command) => {
    const { client, out } = await contextOf(command);
    const options = optionsOf<FilterOptions & { form: string; first: string; after?: string }>(command);
    const { submissions: page } = await client.request(SubmissionsDocument, {
      formId: options.form,
      first: Number(options.first),
      after: options.after,
      spam: Boolean(options.spam),
      filter: filterOf(options),
    });
    const rows = page.edges.map(({ node }) => node);
    if (out.json) {
      out.record({ totalCount: page.totalCount, pageInfo: page.pageInfo, submissions: rows });
      return;
    }
    out.list(
      rows.map((row) => ({ ...row, files: row.files.length, data: JSON.stringify(row.data).slice(0, 80) })),
      ['id', 'createdAt', 'files', 'data'],
    );
    process.stdout.write(
      `${rows.length} of ${page.totalCount}${page.pageInfo.hasNextPage ? `; next page: --after ${page.pageInfo.endCursor}` : ''}\n`,
    );
  });

  submissions.command('show <id>').action(async (id: string, _options, command: Command) => {
    const { client, out } = await contextOf(command);
    const { submission } = await client.request(SubmissionDocument, { id });
    if (!submission) {
      throw new NotFoundError(`No submission ${id}`);
    }
    out.record(submission, () => process.stdout.write(`${JSON.stringify(submission, null, 2)}\n`));
  });

  submissions
    .command('delete <id>')
    .description('Deletes it with its files and deliveries')
    .option('-y, --yes', 'do not ask')
    .action(async (id: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      if (!(await confirmed(`Delete submission ${id} with its files?`, optionsOf<{ yes?: boolean }>(command).yes))) {
        throw new UsageError('Cancelled');
      }
      const { deleteSubmission } = await client.request(DeleteSubmissionDocument, { id });
      if (!deleteSubmission) {
        throw new NotFoundError(`No submission ${id}`);
      }
      out.done(`Submission ${id} deleted`, { id, deleted: true });
    });
}
