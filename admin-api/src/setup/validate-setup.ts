// The dry run of `intake plan` (docs/admin-api.md#dry-run): each change of a setup checked as its
// mutation would check it, by the same code, and nothing written. Per change: the permission entry
// of its mutation (access/permission-guard.ts), the mutation's input schemas, then the command up to
// its flush (buildSite, changeForm...). Everything happens in an EntityManager fork that is never
// flushed, so a change may refer to an object an earlier change makes (`siteChange`, `formChange`).
// A change on such an object needs no permission of its own: the one that makes it was checked.
import type { Em } from '@intake/shared/db';
import { GraphQLError } from 'graphql';
import type { Form, Site } from '@intake/shared/entities';
import type { AdminContext } from '../context.js';
import { authorizeField, notFoundAs } from '../access/permission-guard.js';
import { badUserInput, formatError, isExposedError } from '../errors.js';
import { CreateFormInput, UpdateFormInput } from '../forms/form.input.js';
import { buildForm } from '../forms/create-form.js';
import { changeForm } from '../forms/update-form.js';
import { requireLiveForm, requireLiveSite } from '../lib/live-finders.js';
import { buildSite } from '../sites/create-site.js';
import { CreateSiteInput, UpdateSiteInput } from '../sites/site.input.js';
import { changeSite } from '../sites/update-site.js';
import { parseId } from '../validation/fields.js';
import { inputSchema } from '../validation/input-type.js';
import { parseInput } from '../validation/parse-input.js';
import { buildWebhook } from '../webhooks/create-webhook.js';
import { changeWebhook } from '../webhooks/update-webhook.js';
import { CreateWebhookInput, UpdateWebhookInput } from '../webhooks/webhook.input.js';
import type { SetupChangeInput } from './setup.input.js';
import type { SetupRefusalType } from './setup.type.js';

/** Enough for any setup file a person keeps; each change costs a few indexed reads. */
export const MAX_SETUP_CHANGES = 500;

const KINDS = ['createSite', 'updateSite', 'createForm', 'updateForm', 'createWebhook', 'updateWebhook'] as const;

/** What a change made, for the changes after it that name it. */
interface Made {
  site?: Site;
  form?: Form;
}

type Check = (dryRun: DryRun, value: Record<string, unknown>) => Promise<Made>;

interface DryRun {
  context: AdminContext;
  em: Em;
  /** What each change is, and what it made (nothing when it was refused). */
  kinds: (typeof KINDS)[number][];
  made: Made[];
}

/** The mutation's own permission check; an object the caller may not see is NOT_FOUND, as there. */
async function authorize(dryRun: DryRun, mutation: string, args: Record<string, unknown>): Promise<void> {
  const hidden = await authorizeField(dryRun.context, 'Mutation', mutation, args);
  if (hidden !== null) {
    throw notFoundAs(hidden);
  }
}

/**
 * `value` checked by the schema of an input class, as `@InputArg` checks a mutation's argument (the
 * class's fields are typed as what their schemas give: validation/input-type.ts); `without` leaves
 * out the parent's id when the parent is made by an earlier change.
 */
function parseAs<Input extends object, Key extends keyof Input = never>(
  dryRun: DryRun,
  inputClass: abstract new () => Input,
  value: unknown,
  without?: Key,
): Omit<Input, Key> {
  const schema = inputSchema(inputClass, dryRun.context.deps.services.config);
  const checked = without === undefined ? schema : schema.omit({ [without]: true } as Record<string, true>);
  return parseInput(checked, value, 'input') as Omit<Input, Key>;
}

/** What the earlier change `index` of kind `kind` made: nothing when that change was refused. */
function earlier(dryRun: DryRun, index: unknown, here: number, field: string, kind: 'createSite' | 'createForm'): Made {
  if (typeof index !== 'number' || index < 0 || index >= here || dryRun.kinds[index] !== kind) {
    throw badUserInput(field, `must be the index of an earlier ${kind} change, or give the id of an existing object`);
  }
  return dryRun.made[index] ?? {};
}

const isGiven = (value: unknown) => value !== undefined && value !== null;

function checks(here: number): Record<(typeof KINDS)[number], Check> {
  return {
    async createSite(dryRun, input) {
      await authorize(dryRun, 'createSite', { input });
      return { site: buildSite(dryRun.em, parseAs(dryRun, CreateSiteInput, input)) };
    },
    async updateSite(dryRun, { id, input }) {
      await authorize(dryRun, 'updateSite', { id, input });
      const parsed = parseAs(dryRun, UpdateSiteInput, input);
      return { site: await changeSite(dryRun.em, parseId(id as string, 'id'), parsed) };
    },
    async createForm(dryRun, { siteId, siteChange, name, settings }) {
      const { em, context } = dryRun;
      let site: Site | undefined;
      let input: Omit<CreateFormInput, 'siteId'>;
      if (isGiven(siteId)) {
        await authorize(dryRun, 'createForm', { input: { siteId, name } });
        const { siteId: id, ...rest } = parseAs(dryRun, CreateFormInput, { siteId, name });
        input = rest;
        site = await requireLiveSite(em, id);
      } else {
        input = parseAs(dryRun, CreateFormInput, { name }, 'siteId');
        site = earlier(dryRun, siteChange, here, 'siteChange', 'createSite').site;
      }
      // Apply sends the settings in a second request: checked as updateForm checks them.
      const parsedSettings = isGiven(settings) ? parseAs(dryRun, UpdateFormInput, settings) : null;
      if (site === undefined) {
        return {};
      }
      const form = buildForm(em, site, input);
      if (parsedSettings !== null) {
        changeForm(em, context.deps.services.config.tokenEncryptionKey, form, parsedSettings);
      }
      return { form };
    },
    async updateForm(dryRun, { id, input }) {
      await authorize(dryRun, 'updateForm', { id, input });
      const parsed = parseAs(dryRun, UpdateFormInput, input);
      const form = await requireLiveForm(dryRun.em, parseId(id as string, 'id'));
      changeForm(dryRun.em, dryRun.context.deps.services.config.tokenEncryptionKey, form, parsed);
      return { form };
    },
    async createWebhook(dryRun, { formId, formChange, url, description, format }) {
      const fields = {
        url,
        ...(description === undefined ? {} : { description }),
        ...(format === undefined ? {} : { format }),
      };
      let form: Form | undefined;
      let input: Omit<CreateWebhookInput, 'formId'>;
      if (isGiven(formId)) {
        await authorize(dryRun, 'createWebhook', { input: { formId, ...fields } });
        const { formId: id, ...rest } = parseAs(dryRun, CreateWebhookInput, { formId, ...fields });
        input = rest;
        form = await requireLiveForm(dryRun.em, id);
      } else {
        input = parseAs(dryRun, CreateWebhookInput, fields, 'formId');
        form = earlier(dryRun, formChange, here, 'formChange', 'createForm').form;
      }
      if (form !== undefined) {
        buildWebhook(dryRun.em, dryRun.context.deps.services.config.tokenEncryptionKey, form, input);
      }
      return {};
    },
    async updateWebhook(dryRun, { id, input }) {
      await authorize(dryRun, 'updateWebhook', { id, input });
      const parsed = parseAs(dryRun, UpdateWebhookInput, input);
      await changeWebhook(dryRun.em, parseId(id as string, 'id'), parsed);
      return {};
    },
  };
}

async function checkChange(dryRun: DryRun, change: SetupChangeInput, here: number): Promise<Made> {
  const given = KINDS.filter((kind) => isGiven(change[kind]));
  if (given.length !== 1) {
    throw badUserInput(`changes.${here}`, `must set exactly one of ${KINDS.join(', ')}`);
  }
  const kind = given[0]!;
  dryRun.kinds[here] = kind;
  return checks(here)[kind](dryRun, change[kind] as unknown as Record<string, unknown>);
}

/** The changes their mutations would refuse, each with that mutation's error; [] when all would go through. */
export async function validateSetup(context: AdminContext, changes: SetupChangeInput[]): Promise<SetupRefusalType[]> {
  if (changes.length > MAX_SETUP_CHANGES) {
    throw badUserInput('changes', `must hold at most ${MAX_SETUP_CHANGES} changes`);
  }
  // Its own fork, never flushed: what the checks build and change is dropped with it.
  const dryRun: DryRun = { context, em: context.deps.services.db.em.fork({ clear: true }), kinds: [], made: [] };
  const refusals: SetupRefusalType[] = [];
  for (const [here, change] of changes.entries()) {
    try {
      dryRun.made[here] = await checkChange(dryRun, change, here);
    } catch (error) {
      // A fault of the server (an outage, a bug) fails the whole run, as it would fail the mutation.
      if (!isExposedError(error)) {
        throw error;
      }
      const answer = formatError(
        { message: (error as Error).message, extensions: error instanceof GraphQLError ? error.extensions : {} },
        error,
      );
      const field = answer.extensions?.field;
      refusals.push({
        change: here,
        code: String(answer.extensions?.code),
        field: typeof field === 'string' ? field : null,
        message: answer.message,
      });
    }
  }
  return refusals;
}
