// Questions before destructive steps: asked on a terminal, replaced by --yes elsewhere.
import { confirm } from '@inquirer/prompts';
import { UsageError } from './errors.js';

export function interactive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/** True to go on. Without a terminal and without --yes this is a usage error: scripts must say --yes. */
export async function confirmed(question: string, yes: boolean | undefined): Promise<boolean> {
  if (yes) {
    return true;
  }
  if (!interactive()) {
    throw new UsageError(`${question} Not a terminal: pass --yes to go ahead`);
  }
  return confirm({ message: question, default: false });
}
