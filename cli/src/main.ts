// `intake`: the command line of an Intake admin API (docs/cli.md).
import { Command, CommanderError, Option } from 'commander';
import { ApiError } from './api/client.js';
import { registerAudit } from './commands/audit.js';
import { registerErasure } from './commands/erasure.js';
import { registerExport } from './commands/export.js';
import { registerForms } from './commands/forms.js';
import { registerLogin } from './commands/login.js';
import { registerSetup } from './commands/setup.js';
import { registerSites } from './commands/sites.js';
import { registerSubmissions } from './commands/submissions.js';
import { registerTokens } from './commands/tokens.js';
import { registerWebhooks } from './commands/webhooks.js';
import { EXIT, UsageError } from './errors.js';
import { version } from './version.js';

function buildProgram(): Command {
  const program = new Command('intake')
    .description('Manage an Intake server: sites, forms, webhooks, tokens, submissions, and setup as code')
    .version(version)
    .exitOverride()
    .showHelpAfterError()
    .addOption(
      new Option('--profile <name>', 'the stored profile to use (default: INTAKE_PROFILE, else the current one)'),
    )
    .addOption(
      new Option('-o, --output <format>', 'text for people, json for scripts')
        .choices(['text', 'json'])
        .default('text'),
    );
  registerLogin(program);
  registerSetup(program);
  registerSites(program);
  registerForms(program);
  registerWebhooks(program);
  registerTokens(program);
  registerSubmissions(program);
  registerExport(program);
  registerAudit(program);
  registerErasure(program);
  return program;
}

function jsonWanted(argv: string[]): boolean {
  return argv.some(
    (arg, index) => arg === '--output=json' || ((arg === '-o' || arg === '--output') && argv[index + 1] === 'json'),
  );
}

/** Prints the failure (the API's own messages and codes) and answers the exit code. */
function report(error: unknown, json: boolean): number {
  if (error instanceof CommanderError) {
    // Commander printed its message already (and the help when asked for).
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0
      ? EXIT.ok
      : EXIT.usage;
  }
  if (error instanceof Error && error.name === 'ExitPromptError') {
    process.stderr.write('Cancelled\n');
    return EXIT.usage;
  }
  const code = error instanceof UsageError ? EXIT.usage : EXIT.failed;
  const message = error instanceof Error ? error.message : String(error);
  if (json) {
    const errors = error instanceof ApiError ? error.errors : [];
    process.stderr.write(`${JSON.stringify({ error: message, errors })}\n`);
  } else {
    process.stderr.write(`intake: ${message}\n`);
  }
  return code;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = report(error, jsonWanted(process.argv));
}
