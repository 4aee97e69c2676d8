// What every command's action gets: the admin API client of the chosen profile and the output format.
import type { Command } from 'commander';
import { AdminClient } from './api/client.js';
import { resolveConnection } from './config/profiles.js';
import { Output, type OutputFormat } from './output.js';

export interface GlobalOptions {
  profile?: string;
  output: OutputFormat;
}

export interface Context {
  client: AdminClient;
  out: Output;
}

export function outputOf(command: Command): Output {
  return new Output((command.optsWithGlobals() as GlobalOptions).output);
}

export async function contextOf(command: Command): Promise<Context> {
  const options = command.optsWithGlobals() as GlobalOptions;
  const connection = await resolveConnection({ profile: options.profile });
  return { client: new AdminClient(connection), out: new Output(options.output) };
}

/** The options of the command itself, typed. */
export function optionsOf<T>(command: Command): T {
  return command.opts() as T;
}
