// intake plan / apply / schema: setup as code (docs/cli.md#setup-as-code).
import type { Command } from 'commander';
import { SecretFingerprints } from '../config/secret-fingerprints.js';
import { confirmed } from '../confirm.js';
import { contextOf, optionsOf } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import { printJson } from '../output.js';
import { writePrivateFile } from '../private-file.js';
import { assertAccepted } from '../setup/dry-run.js';
import { loadSetupFile } from '../setup/load.js';
import { makePlan, type ApplyState, type FormEndpoint } from '../setup/plan.js';
import { planJson, renderPlan } from '../setup/render.js';
import { setupJsonSchema } from '../setup/schema.js';

interface PlanOptions {
  file: string;
  prune?: boolean;
  detailedExitcode?: boolean;
}

interface ApplyOptions extends PlanOptions {
  yes?: boolean;
  webhookSecrets?: string;
}

async function planFor(command: Command, options: PlanOptions) {
  const context = await contextOf(command);
  const file = await loadSetupFile(options.file);
  const fingerprints = await SecretFingerprints.load(context.client.connection.url);
  const plan = await makePlan(context.client, file, fingerprints, Boolean(options.prune));
  return { ...context, plan, fingerprints };
}

const pastTense = (action: 'create' | 'update' | 'delete') =>
  action === 'delete' ? 'deleted' : action === 'create' ? 'created' : 'updated';

function printForms(forms: FormEndpoint[]): void {
  for (const form of forms) {
    process.stdout.write(
      `form ${JSON.stringify(form.site)} / ${JSON.stringify(form.form)}: code ${form.code}, endpoint ${form.endpointUrl}\n`,
    );
  }
}

export function registerSetup(program: Command): void {
  program
    .command('plan')
    .description('Show what apply would create, change and delete to make the server match the file')
    .requiredOption('-f, --file <path>', 'the setup file (YAML or JSON)')
    .option('--prune', 'also delete managed objects that left the file')
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when there are none')
    .action(async (_options, command: Command) => {
      const options = optionsOf<PlanOptions>(command);
      const { client, out, plan } = await planFor(command, options);
      if (out.json) {
        printJson(planJson(plan.changes));
      } else {
        process.stdout.write(`${renderPlan(plan.changes, options.file)}\n`);
      }
      // The plan is shown, then what the server would refuse of it (exit 1).
      await assertAccepted(client, plan.changes);
      if (options.detailedExitcode && plan.changes.length > 0) {
        process.exitCode = EXIT.changes;
      }
    });

  program
    .command('apply')
    .description('Make the server match the file (asks first on a terminal unless --yes)')
    .requiredOption('-f, --file <path>', 'the setup file (YAML or JSON)')
    .option('--prune', 'also delete managed objects that left the file')
    .option('-y, --yes', 'do not ask')
    .option('--webhook-secrets <path>', "write the created webhooks' signing secrets to this file (mode 0600)")
    .action(async (_options, command: Command) => {
      const options = optionsOf<ApplyOptions>(command);
      const { client, out, plan, fingerprints } = await planFor(command, options);
      const state: ApplyState = { client, fingerprints, forms: [], webhookSecrets: [] };
      if (plan.changes.length > 0) {
        if (!out.json) {
          process.stdout.write(`${renderPlan(plan.changes, options.file)}\n\n`);
        }
        if (!(await confirmed('Apply these changes?', options.yes))) {
          throw new UsageError('Apply cancelled: nothing changed');
        }
        let made = 0;
        try {
          for (const change of plan.changes) {
            await change.run(state);
            made += 1;
            if (!out.json) {
              process.stdout.write(`${pastTense(change.action)} ${change.address}\n`);
            }
          }
        } catch (error) {
          // What was made stays made: say so, with the new forms' codes, before the API's refusal.
          const stoppedAt = plan.changes[made]!.address;
          if (out.json) {
            printJson({ ...planJson(plan.changes.slice(0, made)), forms: state.forms, stoppedAt });
          } else {
            process.stdout.write(`\nStopped at ${stoppedAt}: ${made} of ${plan.changes.length} changes made.\n`);
            printForms(state.forms);
          }
          throw error;
        } finally {
          // The signing secrets of the webhooks made are shown once only: kept even when apply stops.
          if (options.webhookSecrets && state.webhookSecrets.length > 0) {
            await writePrivateFile(options.webhookSecrets, `${JSON.stringify(state.webhookSecrets, null, 2)}\n`);
          }
        }
      }
      const forms = [...plan.existingForms, ...state.forms];
      if (out.json) {
        printJson({ ...planJson(plan.changes), forms });
        return;
      }
      if (plan.changes.length === 0) {
        process.stdout.write(`${renderPlan([], options.file)}\n`);
      } else {
        process.stdout.write(`\nApplied ${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'}.\n`);
      }
      printForms(state.forms);
      if (state.webhookSecrets.length > 0) {
        process.stdout.write(
          options.webhookSecrets
            ? `Signing secrets of the ${state.webhookSecrets.length} new webhook(s) written to ${options.webhookSecrets}.\n`
            : `The new webhooks' signing secrets were not kept: pass --webhook-secrets FILE, or run intake webhooks rotate-secret ID.\n`,
        );
      }
    });

  program
    .command('schema')
    .description('Print the JSON Schema of the setup file (docs/intake-config.schema.json)')
    .action(() => {
      printJson(setupJsonSchema());
    });
}
