// The submissions search filters (SubmissionFilterInput), shared by `submissions list` and `export`.
import type { Command } from 'commander';

export interface FilterOptions {
  query?: string;
  createdAfter?: string;
  createdBefore?: string;
  hasFiles?: boolean;
  spam?: boolean;
}

export function addFilterOptions(command: Command): Command {
  return command
    .option('--query <text>', 'text inside any value (3 to 200 characters, case and accents ignored)')
    .option('--created-after <iso>', 'created at or after (ISO 8601 with offset, or a date)')
    .option('--created-before <iso>', 'created before')
    .option('--has-files', 'only submissions with a file')
    .option('--no-has-files', 'only submissions without a file')
    .option('--spam', 'the Spam view instead of the inbox');
}

export function filterOf(options: FilterOptions) {
  const filter = {
    query: options.query,
    createdAfter: options.createdAfter,
    createdBefore: options.createdBefore,
    hasFiles: options.hasFiles,
  };
  return Object.values(filter).some((value) => value !== undefined) ? filter : undefined;
}
