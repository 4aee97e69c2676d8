// intake submissions …: list (with the search and inbox filters), show, delete, and the inbox's
// status, assignee and notes.
import { Option, type Command } from 'commander';
import {
  AddSubmissionNoteDocument,
  AssignSubmissionDocument,
  DeleteSubmissionDocument,
  MyIdDocument,
  SetSubmissionStatusDocument,
  SubmissionDocument,
  SubmissionsDocument,
  type SubmissionStatus,
} from '../gql/graphql.js';
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
      .option('--after <cursor>', 'the cursor a previous page ended with')
      .addOption(new Option('--status <status...>', 'only these (default: all but archived)').choices(STATUSES))
      .option('--mine', 'only those assigned to you')
      .option('--assignee <member-id>', 'only those assigned to this member')
      .option('--unread', 'only those you have not read'),
  ).action(async (_options, command: Command) => {
    const { client, out } = await contextOf(command);
    const options = optionsOf<FilterOptions & StateOptions & { form: string; first: string; after?: string }>(command);
    const { submissions: page } = await client.request(SubmissionsDocument, {
      formId: options.form,
      first: Number(options.first),
      after: options.after,
      spam: Boolean(options.spam),
      filter: filterOf(options),
      state: stateOf(options),
    });
    const rows = page.edges.map(({ node }) => node);
    if (out.json) {
      out.record({ totalCount: page.totalCount, pageInfo: page.pageInfo, submissions: rows });
      return;
    }
    out.list(
      rows.map((row) => ({
        ...row,
        assignee: row.assignee?.name ?? '',
        files: row.files.length,
        data: JSON.stringify(row.data).slice(0, 80),
      })),
      ['id', 'createdAt', 'status', 'assignee', 'files', 'data'],
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

  submissions
    .command('status <id> <status>')
    .description(`Sets its status: ${STATUSES.join(', ')} (archived hides it from the default list)`)
    .action(async (id: string, status: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      if (!STATUSES.includes(status as SubmissionStatus)) {
        throw new UsageError(`The status is one of ${STATUSES.join(', ')}`);
      }
      const { setSubmissionStatus } = await client.request(SetSubmissionStatusDocument, {
        id,
        status: status as SubmissionStatus,
      });
      out.done(`Submission ${id} is ${setSubmissionStatus.status}`, setSubmissionStatus);
    });

  submissions
    .command('assign <id> <member>')
    .description('Assigns it to a member who can read its site: their id, `me`, or `nobody`')
    .action(async (id: string, member: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      const assigneeId =
        member === 'nobody' ? null : member === 'me' ? (await client.request(MyIdDocument, {})).me.id : member;
      const { assignSubmission } = await client.request(AssignSubmissionDocument, { id, assigneeId });
      const who = assignSubmission.assignee?.name;
      out.done(
        who ? `Submission ${id} is assigned to ${who}` : `Submission ${id} is assigned to nobody`,
        assignSubmission,
      );
    });

  submissions
    .command('note <id> <text>')
    .description('Adds an internal note (the team only; never sent to webhooks)')
    .action(async (id: string, text: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      const { addSubmissionNote } = await client.request(AddSubmissionNoteDocument, { id, text });
      out.done(`Note added to submission ${id} (${addSubmissionNote.notes.length} in all)`, {
        id,
        notes: addSubmissionNote.notes.length,
      });
    });
}

const STATUSES: SubmissionStatus[] = ['new', 'open', 'done', 'archived'];

interface StateOptions {
  status?: SubmissionStatus[];
  mine?: boolean;
  assignee?: string;
  unread?: boolean;
}

/** The inbox filters (SubmissionStateFilterInput), absent when none is given. */
function stateOf(options: StateOptions) {
  const state = { status: options.status, mine: options.mine, assigneeId: options.assignee, unread: options.unread };
  return Object.values(state).some((value) => value !== undefined) ? state : undefined;
}
