// intake audit: the audit log, `audit verify` its chain, `audit export` it for an offline check
// (administrator login only; an API token gets FORBIDDEN from the API).
import { rename, rm, writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { AuditLogDocument, type AuditOutcome, ExportAuditLogDocument, VerifyAuditLogDocument } from '../gql/graphql.js';
import { contextOf, optionsOf } from '../context.js';
import { EXIT } from '../errors.js';
import { readWitness } from './witness-file.js';

export function registerAudit(program: Command): void {
  const audit = program
    .command('audit')
    .description('The audit log, newest first')
    .option('--actor <text>', 'an actor id or part of its name')
    .option('--action <name>', 'exactly this action (deleteSite)')
    .option('--object-type <type>')
    .option('--object-id <id>')
    .addOption(new Option('--outcome <outcome>').choices(['SUCCESS', 'FAILURE']))
    .option('--from <iso>', 'at or after')
    .option('--to <iso>', 'before')
    .option('--first <count>', '0 to 100', '20')
    .option('--after <cursor>')
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const options = optionsOf<Record<string, string | undefined>>(command);
      const filter = {
        actor: options.actor,
        action: options.action,
        objectType: options.objectType,
        objectId: options.objectId,
        // One of the choices commander has checked.
        outcome: options.outcome as AuditOutcome | undefined,
        from: options.from,
        to: options.to,
      };
      const { auditLog } = await client.request(AuditLogDocument, {
        first: Number(options.first),
        after: options.after,
        filter,
      });
      const entries = auditLog.edges.map(({ node }) => node);
      if (out.json) {
        out.record({ pageInfo: auditLog.pageInfo, entries });
        return;
      }
      out.list(
        entries.map((entry) => ({ ...entry, actor: `${entry.actor.kind}:${entry.actor.name}` })),
        ['at', 'actor', 'action', 'objectType', 'objectId', 'outcome', 'errorCode'],
      );
      if (auditLog.pageInfo.hasNextPage) {
        process.stdout.write(`next page: --after ${auditLog.pageInfo.endCursor}\n`);
      }
    });
  registerVerify(audit);
  registerExport(audit);
}

function registerVerify(audit: Command): void {
  audit
    .command('verify')
    .description("Walk the audit log's chain; exit 1 at the first entry changed, removed or moved")
    .option('--witness <file>', 'a signed checkpoint kept outside the database: the log must still reach it')
    .action(async (options: { witness?: string }, command: Command) => {
      const witness = options.witness === undefined ? undefined : await readWitness(options.witness);
      const { client, out } = await contextOf(command);
      const { verifyAuditLog: found } = await client.request(VerifyAuditLogDocument, { witness });
      out.record(found, () => {
        process.stdout.write(
          found.valid
            ? `Audit log intact: ${found.checkedEntries} entries checked\n`
            : `Audit log NOT intact at entry ${found.firstBadSequence}: ${found.problem}\n` +
                `${found.checkedEntries} entries checked and intact before it\n`,
        );
      });
      if (!found.valid) {
        process.exitCode = EXIT.failed;
      }
    });
}

function registerExport(audit: Command): void {
  audit
    .command('export')
    .description('The audit log with its chain and signed checkpoints, as NDJSON (scripts/verify-audit-log.mjs)')
    .option('--file <path>', 'write it to this file (mode 0600) instead of stdout')
    .action(async (_options, command: Command) => {
      const { client, out } = await contextOf(command);
      const { file } = optionsOf<{ file?: string }>(command);
      const { exportAuditLog: exported } = await client.request(ExportAuditLogDocument);
      if (!file) {
        process.stdout.write(exported.content.endsWith('\n') ? exported.content : `${exported.content}\n`);
        return;
      }
      // Written beside the target and renamed: never a half file, and never readable by others.
      const partial = `${file}.partial`;
      await rm(partial, { force: true });
      await writeFile(partial, exported.content, { mode: 0o600, flag: 'wx' });
      await rename(partial, file);
      out.done(`Wrote ${exported.entries} audit entries to ${file}`, {
        file,
        fileName: exported.fileName,
        entries: exported.entries,
      });
    });
}
