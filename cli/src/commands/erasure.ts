// intake erasure preview|erase <value>: the submissions holding a person's value (a data subject's
// request), listed first, erased after a confirmation (docs/submissions.md#erasure-on-request).
import type { Command } from 'commander';
import { EraseSubmissionsDocument, ErasureCandidatesDocument } from '../gql/graphql.js';
import { confirmed } from '../confirm.js';
import { contextOf, optionsOf } from '../context.js';
import { UsageError } from '../errors.js';

const COLUMNS = ['id', 'createdAt', 'siteName', 'formName', 'matchingFields', 'spam'];

export function registerErasure(program: Command): void {
  const erasure = program.command('erasure').description("Erasure on request: a person's submissions");

  erasure
    .command('preview <value>')
    .description('The submissions holding the value (an e-mail address, a phone number): where, and in which fields')
    .action(async (value: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      out.list((await client.request(ErasureCandidatesDocument, { value })).erasureCandidates, COLUMNS);
    });

  erasure
    .command('erase <value>')
    .description('Lists the submissions holding the value, then erases them after a confirmation')
    .option('-y, --yes', 'do not ask')
    .action(async (value: string, _options, command: Command) => {
      const { client, out } = await contextOf(command);
      const { erasureCandidates } = await client.request(ErasureCandidatesDocument, {
        value,
      });
      if (erasureCandidates.length === 0) {
        out.done('No submission holds this value: nothing to erase', {
          erasedIds: [],
          notFoundIds: [],
          fileCount: 0,
          deliveryCount: 0,
        });
        return;
      }
      if (!out.json) {
        out.list(erasureCandidates, COLUMNS);
      }
      const question = `Erase these ${erasureCandidates.length} submission(s) with their files and deliveries?`;
      if (!(await confirmed(question, optionsOf<{ yes?: boolean }>(command).yes))) {
        throw new UsageError('Cancelled: nothing erased');
      }
      const { eraseSubmissions } = await client.request(EraseSubmissionsDocument, {
        ids: erasureCandidates.map((candidate) => candidate.id),
      });
      out.done(
        `Erased ${eraseSubmissions.erasedIds.length} submission(s), ${eraseSubmissions.fileCount} file(s), ${eraseSubmissions.deliveryCount} deliver${eraseSubmissions.deliveryCount === 1 ? 'y' : 'ies'}`,
        eraseSubmissions,
      );
    });
}
