// intake audit: the audit log (administrator login only; an API token gets FORBIDDEN from the API).
import { type Command, Option } from 'commander';
import { Q } from '../api/operations.js';
import { contextOf, optionsOf } from '../context.js';

interface AuditPage {
  auditLog: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: {
      node: { at: string; actor: { kind: string; name: string }; action: string; outcome: string } & Record<
        string,
        unknown
      >;
    }[];
  };
}

export function registerAudit(program: Command): void {
  program
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
        outcome: options.outcome,
        from: options.from,
        to: options.to,
      };
      const { auditLog } = await client.request<AuditPage>(Q.auditLog, {
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
}
