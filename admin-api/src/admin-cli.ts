// `npm run admin -- <command>`: recovery commands run on the server, for the day nobody can sign
// in. Opens the database as every entry point does (the embedded one only while no other process
// holds it) and applies pending migrations first, as `npm run migrate` does.
//
//   reset-password <email> [--password-stdin]   a new password: generated and printed once, or read from stdin
//   enable <email>                              the account may sign in again
//   rotate-receipt-key                          a new receipt signing key in DATA_DIR; the old one retired
//   reset-two-factor <email>                    the account's TOTP secret, recovery codes and passkeys are removed
import { ConfigError, parseConfig, readEnvironment } from '@intake/shared/config';
import { bootstrap } from '@intake/shared/process';
import { rotateKeyFile } from '@intake/shared/signing';
import {
  enableMember,
  passwordProblem,
  resetMemberPassword,
  resetMemberSecondFactor,
} from './sign-in/recovery/recover-member.js';
import { generatePassword } from './lib/passwords.js';

const USAGE = [
  'usage: npm run admin -- reset-password <email> [--password-stdin]',
  '       npm run admin -- enable <email>',
  '       npm run admin -- rotate-receipt-key',
  '       npm run admin -- reset-two-factor <email>',
].join('\n');

class UsageError extends Error {}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
  }
  // One trailing line end is the one `echo` or a file adds, not part of the password.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * A new receipt signing key in DATA_DIR/receipt-keys.json; the old one is retired now and stays
 * published for RECEIPT_KEY_RETENTION_DAYS. Needs no database: it runs beside running services,
 * which sign with the new key once restarted.
 */
async function rotateReceiptKey(): Promise<string> {
  process.umask(0o077);
  const config = parseConfig(readEnvironment(process.cwd()));
  if (config.receiptSigning.key !== undefined) {
    throw new UsageError(
      'RECEIPT_SIGNING_KEY is set: rotate by putting the new key first in its array (docs/receipts.md#keys)',
    );
  }
  const [current, retired] = await rotateKeyFile(config.dataDir);
  return [
    `new receipt signing key ${current!.jwk.kid}; ${retired!.jwk.kid} is retired and stays published for`,
    `${config.receiptSigning.keyRetentionDays} days. Restart the services to sign with the new key.`,
  ].join(' ');
}

async function main(args: string[]): Promise<string> {
  if (args[0] === 'rotate-receipt-key') {
    if (args.length !== 1) {
      throw new UsageError(USAGE);
    }
    return rotateReceiptKey();
  }
  const [command, email, ...flags] = args;
  const fromStdin = flags.length === 1 && flags[0] === '--password-stdin';
  if (
    email === undefined ||
    email.startsWith('-') ||
    (flags.length > 0 && !(command === 'reset-password' && fromStdin))
  ) {
    throw new UsageError(USAGE);
  }
  if (command !== 'reset-password' && command !== 'enable' && command !== 'reset-two-factor') {
    throw new UsageError(USAGE);
  }
  const chosen = command === 'reset-password' && fromStdin ? await readStdin() : null;
  const problem = chosen === null ? null : passwordProblem(chosen);
  if (problem !== null) {
    throw new UsageError(problem);
  }
  const services = await bootstrap({ migrate: true });
  try {
    const em = services.db.em.fork();
    if (command === 'enable') {
      if ((await enableMember(em, services.auditChain, email)) === null) {
        throw new UsageError(`no account has the e-mail ${email}`);
      }
      return `${email} is active and may sign in again`;
    }
    if (command === 'reset-two-factor') {
      if ((await resetMemberSecondFactor(em, services.auditChain, email)) === null) {
        throw new UsageError(`no account has the e-mail ${email}`);
      }
      return `${email} signs in with the password alone until they set up two-factor sign-in again`;
    }
    const password = chosen ?? generatePassword();
    if ((await resetMemberPassword(em, services.auditChain, email, password)) === null) {
      throw new UsageError(`no account has the e-mail ${email}`);
    }
    return chosen === null
      ? `new password for ${email} (shown once; change it after signing in): ${password}`
      : `the password of ${email} was replaced`;
  } finally {
    await services.db.close();
  }
}

try {
  process.stdout.write(`${await main(process.argv.slice(2))}\n`);
} catch (error) {
  const known = error instanceof UsageError || error instanceof ConfigError;
  process.stderr.write(`${known ? (error as Error).message : `admin command failed: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}
