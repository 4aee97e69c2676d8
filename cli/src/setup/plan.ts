// What it takes to make the server match a setup file: the changes, in the order apply makes them
// (a site before its forms, a form before its webhooks, deletions last), each with the fields it sets.
// Objects are matched by name (a site; a form within its site), a webhook by its URL within its form,
// a grant by the member's e-mail. What --prune may delete is what the file manages: the forms of a
// site that declares `forms`, the webhooks of a form that declares `webhooks`, the grants on a site
// that declares `members`. Sites the file does not name, and lists it leaves out, are never touched.
import { ApiError, type AdminClient } from '../api/client.js';
import type { Form, GrantLevel, Limits, Member, Site, UpdateFormInput } from '../api/operations.js';
import {
  CreateFormDocument,
  CreateSiteDocument,
  CreateWebhookDocument,
  DeleteFormDocument,
  DeleteWebhookDocument,
  FormsDocument,
  LimitsDocument,
  MembersDocument,
  SitesDocument,
  UpdateFormDocument,
  UpdateMemberGrantsDocument,
  UpdateSiteDocument,
  UpdateWebhookDocument,
  WebhooksDocument,
  type SetupChangeInput,
  type WebhookFormat,
} from '../gql/graphql.js';
import type { SecretFingerprints } from '../config/secret-fingerprints.js';
import { UsageError } from '../errors.js';
import type { FieldChange } from './field-change.js';
import { diffFormSettings, normaliseDomain } from './form-settings.js';
import type { FormSpec, SetupFile, SiteSpec } from './schema.js';

export type ChangeKind = 'site' | 'form' | 'webhook' | 'grant';

export interface FormEndpoint {
  site: string;
  form: string;
  code: string;
  endpointUrl: string;
  created: boolean;
}

/** What apply gathers while it runs. */
export interface ApplyState {
  client: AdminClient;
  fingerprints: SecretFingerprints;
  forms: FormEndpoint[];
  /** Signing secrets of the webhooks created (written to --webhook-secrets only, never printed). */
  webhookSecrets: { site: string; form: string; url: string; id: string; secret: string }[];
}

export interface PlannedChange {
  action: 'create' | 'update' | 'delete';
  kind: ChangeKind;
  address: string;
  fields: FieldChange[];
  run(state: ApplyState): Promise<void>;
  /**
   * What the change will send, for the server's dry run (dry-run.ts); `indexOf` gives the place, in
   * what the dry run sends, of the change that makes a new parent. Absent: nothing to check
   * (deletions, grants).
   */
  check?(indexOf: (change: PlannedChange) => number): SetupChangeInput;
}

export interface Plan {
  changes: PlannedChange[];
  /** The forms the file declares that exist already (apply adds those it creates). */
  existingForms: FormEndpoint[];
}

/** An id known now, or once the step that creates its object (`made`) has run. */
interface Ref {
  id?: string;
  made?: PlannedChange;
}

const quote = (value: string) => JSON.stringify(value);
const hrefOf = (url: string) => {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
};

function byName<T extends { name: string }>(items: T[], what: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    if (map.has(item.name)) {
      throw new UsageError(`Two ${what} are named ${quote(item.name)} on the server: rename one so it can be matched`);
    }
    map.set(item.name, item);
  }
  return map;
}

/**
 * A new form gets its settings (declared fields among them) in a second request. Refused, the form
 * is deleted again: a form is made whole or not at all, never left without the fields the file
 * declares (the next plan would then show `~ update form … fields: +a`).
 */
async function settleNewForm(state: ApplyState, created: Form, input: UpdateFormInput): Promise<Form> {
  try {
    return (await state.client.request(UpdateFormDocument, { id: created.id, input })).updateForm;
  } catch (refusal) {
    try {
      await state.client.request(DeleteFormDocument, { id: created.id });
    } catch {
      throw new ApiError(
        `${refusal instanceof Error ? refusal.message : String(refusal)}\nThe form ${created.code} was created without its settings and could not be deleted again: delete it with intake forms delete ${created.id}`,
        refusal instanceof ApiError ? refusal.errors : [],
      );
    }
    throw refusal;
  }
}

class Planner {
  readonly changes: PlannedChange[] = [];
  readonly deletions: PlannedChange[] = [];
  readonly existingForms: FormEndpoint[] = [];
  private members?: Member[];
  /** Each member's grants as apply leaves them, so several sites' changes to one member add up. */
  private readonly grants = new Map<string, Map<string, GrantLevel>>();

  constructor(
    private readonly client: AdminClient,
    private readonly limits: Limits,
    private readonly fingerprints: SecretFingerprints,
    private readonly prune: boolean,
  ) {}

  async site(spec: SiteSpec, current: Site | undefined): Promise<void> {
    const ref: Ref = { id: current?.id };
    const address = `site ${quote(spec.name)}`;
    const domain = spec.domain === undefined ? undefined : normaliseDomain(spec.domain);
    if (!current) {
      const input = { name: spec.name, ...(domain ? { domain } : {}) };
      ref.made = {
        action: 'create',
        kind: 'site',
        address,
        fields: [{ field: 'name', to: spec.name }, ...(domain === undefined ? [] : [{ field: 'domain', to: domain }])],
        run: async ({ client }) => {
          const { createSite } = await client.request(CreateSiteDocument, { input });
          ref.id = createSite.id;
        },
        check: () => ({ createSite: input }),
      };
      this.changes.push(ref.made);
    } else if (domain !== undefined && domain !== current.domain) {
      this.changes.push({
        action: 'update',
        kind: 'site',
        address,
        fields: [{ field: 'domain', from: current.domain, to: domain }],
        run: async ({ client }) => {
          await client.request(UpdateSiteDocument, { id: current.id, input: { domain } });
        },
        check: () => ({ updateSite: { id: current.id, input: { domain } } }),
      });
    }

    if (spec.forms) {
      const forms = current
        ? byName((await this.client.request(FormsDocument, { siteId: current.id })).forms, 'forms')
        : new Map<string, Form>();
      for (const formSpec of spec.forms) {
        await this.form(spec.name, ref, formSpec, forms.get(formSpec.name));
      }
      if (this.prune) {
        const declared = new Set(spec.forms.map((form) => form.name));
        for (const form of forms.values()) {
          if (!declared.has(form.name)) {
            this.deletions.push({
              action: 'delete',
              kind: 'form',
              address: `form ${quote(spec.name)} / ${quote(form.name)}`,
              fields: [],
              run: async ({ client }) => {
                await client.request(DeleteFormDocument, { id: form.id });
              },
            });
          }
        }
      }
    }
    if (spec.members) {
      await this.memberGrants(spec, ref, current);
    }
  }

  private async form(siteName: string, siteRef: Ref, spec: FormSpec, current: Form | undefined): Promise<void> {
    const ref: Ref = { id: current?.id };
    const address = `form ${quote(siteName)} / ${quote(spec.name)}`;
    const settings = diffFormSettings(spec, current, this.limits, this.fingerprints);
    const afterUpdate = async (state: ApplyState, form: Form) => {
      if (settings.secret !== undefined) {
        await state.fingerprints.record(form.id, settings.secret ?? undefined);
      }
    };
    if (!current) {
      const hasSettings = Object.keys(settings.input).length > 0;
      ref.made = {
        action: 'create',
        kind: 'form',
        address,
        fields: [{ field: 'name', to: spec.name }, ...settings.fields],
        run: async (state) => {
          const { createForm } = await state.client.request(CreateFormDocument, {
            input: { siteId: siteRef.id!, name: spec.name },
          });
          let form = createForm;
          if (hasSettings) {
            form = await settleNewForm(state, createForm, settings.input);
          }
          ref.id = form.id;
          await afterUpdate(state, form);
          state.forms.push({
            site: siteName,
            form: spec.name,
            code: form.code,
            endpointUrl: form.endpointUrl,
            created: true,
          });
        },
        check: (indexOf) => ({
          createForm: {
            ...(siteRef.id ? { siteId: siteRef.id } : { siteChange: indexOf(siteRef.made!) }),
            name: spec.name,
            ...(hasSettings ? { settings: settings.input } : {}),
          },
        }),
      };
      this.changes.push(ref.made);
    } else {
      this.existingForms.push({
        site: siteName,
        form: spec.name,
        code: current.code,
        endpointUrl: current.endpointUrl,
        created: false,
      });
      if (settings.fields.length > 0) {
        this.changes.push({
          action: 'update',
          kind: 'form',
          address,
          fields: settings.fields,
          run: async (state) => {
            const { updateForm } = await state.client.request(UpdateFormDocument, {
              id: current.id,
              input: settings.input,
            });
            await afterUpdate(state, updateForm);
          },
          check: () => ({ updateForm: { id: current.id, input: settings.input } }),
        });
      }
    }
    if (spec.webhooks) {
      await this.webhooks(`${quote(siteName)} / ${quote(spec.name)}`, siteName, spec, ref, current);
    }
  }

  private async webhooks(formAddress: string, siteName: string, spec: FormSpec, formRef: Ref, form: Form | undefined) {
    const existing = form ? (await this.client.request(WebhooksDocument, { formId: form.id })).webhooks : [];
    const byUrl = new Map(existing.map((hook) => [hrefOf(hook.url), hook]));
    for (const hook of spec.webhooks ?? []) {
      const current = byUrl.get(hrefOf(hook.url));
      const address = `webhook ${formAddress} / ${hook.url}`;
      if (!current) {
        this.changes.push({
          action: 'create',
          kind: 'webhook',
          address,
          fields: [
            { field: 'url', to: hook.url },
            ...(hook.description ? [{ field: 'description', to: hook.description }] : []),
            ...(hook.format ? [{ field: 'format', to: hook.format }] : []),
            ...(hook.enabled === undefined ? [] : [{ field: 'enabled', to: hook.enabled }]),
          ],
          run: async (state) => {
            const { createWebhook } = await state.client.request(CreateWebhookDocument, {
              input: {
                formId: formRef.id!,
                url: hook.url,
                ...(hook.description ? { description: hook.description } : {}),
                ...(hook.format ? { format: hook.format } : {}),
              },
            });
            if (hook.enabled === false) {
              await state.client.request(UpdateWebhookDocument, {
                id: createWebhook.webhook.id,
                input: { enabled: false },
              });
            }
            state.webhookSecrets.push({
              site: siteName,
              form: spec.name,
              url: hook.url,
              id: createWebhook.webhook.id,
              secret: createWebhook.secret,
            });
          },
          check: (indexOf) => ({
            createWebhook: {
              ...(formRef.id ? { formId: formRef.id } : { formChange: indexOf(formRef.made!) }),
              url: hook.url,
              ...(hook.description ? { description: hook.description } : {}),
              ...(hook.format ? { format: hook.format } : {}),
            },
          }),
        });
        continue;
      }
      const fields: FieldChange[] = [];
      const input: { description?: string | null; format?: WebhookFormat; enabled?: boolean } = {};
      if (hook.description !== undefined && (hook.description || null) !== (current.description || null)) {
        fields.push({ field: 'description', from: current.description, to: hook.description });
        input.description = hook.description;
      }
      if (hook.format !== undefined && hook.format !== current.format) {
        fields.push({ field: 'format', from: current.format, to: hook.format });
        input.format = hook.format;
      }
      if (hook.enabled !== undefined && hook.enabled !== current.enabled) {
        fields.push({ field: 'enabled', from: current.enabled, to: hook.enabled });
        input.enabled = hook.enabled;
      }
      if (fields.length > 0) {
        this.changes.push({
          action: 'update',
          kind: 'webhook',
          address,
          fields,
          run: async ({ client }) => {
            await client.request(UpdateWebhookDocument, { id: current.id, input });
          },
          check: () => ({ updateWebhook: { id: current.id, input } }),
        });
      }
    }
    if (this.prune) {
      const declared = new Set((spec.webhooks ?? []).map((hook) => hrefOf(hook.url)));
      for (const hook of existing) {
        if (!declared.has(hrefOf(hook.url))) {
          this.deletions.unshift({
            action: 'delete',
            kind: 'webhook',
            address: `webhook ${formAddress} / ${hook.url}`,
            fields: [],
            run: async ({ client }) => {
              await client.request(DeleteWebhookDocument, { id: hook.id });
            },
          });
        }
      }
    }
  }

  private async memberGrants(spec: SiteSpec, siteRef: Ref, site: Site | undefined): Promise<void> {
    if (!this.members) {
      this.members = (await this.client.request(MembersDocument)).members;
      for (const member of this.members) {
        this.grants.set(member.id, new Map(member.grants.map((grant) => [grant.site.id, grant.level])));
      }
    }
    const members = this.members;
    const byEmail = new Map(members.map((member) => [member.email.toLowerCase(), member]));
    const update = (member: Member, level: GrantLevel | undefined) => async (state: ApplyState) => {
      const grants = this.grants.get(member.id)!;
      if (level) {
        grants.set(siteRef.id!, level);
      } else {
        grants.delete(siteRef.id!);
      }
      await state.client.request(UpdateMemberGrantsDocument, {
        id: member.id,
        grants: [...grants].map(([siteId, grantLevel]) => ({ siteId, level: grantLevel })),
      });
    };
    for (const grant of spec.members ?? []) {
      const member = byEmail.get(grant.email.toLowerCase());
      if (!member) {
        throw new UsageError(`sites ${quote(spec.name)} members: no team member has the e-mail ${grant.email}`);
      }
      if (member.role !== 'member') {
        throw new UsageError(
          `sites ${quote(spec.name)} members: ${grant.email} is an ${member.role}, who reaches every site without a grant`,
        );
      }
      const current = site ? member.grants.find((existing) => existing.site.id === site.id)?.level : undefined;
      if (current !== grant.level) {
        this.changes.push({
          action: current ? 'update' : 'create',
          kind: 'grant',
          address: `grant ${quote(spec.name)} / ${member.email}`,
          fields: [{ field: 'level', from: current, to: grant.level }],
          run: update(member, grant.level),
        });
      }
    }
    if (this.prune && site) {
      const declared = new Set((spec.members ?? []).map((grant) => grant.email.toLowerCase()));
      for (const member of members) {
        if (member.grants.some((grant) => grant.site.id === site.id) && !declared.has(member.email.toLowerCase())) {
          this.deletions.push({
            action: 'delete',
            kind: 'grant',
            address: `grant ${quote(spec.name)} / ${member.email}`,
            fields: [],
            run: update(member, undefined),
          });
        }
      }
    }
  }
}

export async function makePlan(
  client: AdminClient,
  file: SetupFile,
  fingerprints: SecretFingerprints,
  prune: boolean,
): Promise<Plan> {
  const [{ sites }, { limits }] = await Promise.all([client.request(SitesDocument), client.request(LimitsDocument)]);
  const existing = byName(sites, 'sites');
  const planner = new Planner(client, limits, fingerprints, prune);
  for (const spec of file.sites) {
    await planner.site(spec, existing.get(spec.name));
  }
  return { changes: [...planner.changes, ...planner.deletions], existingForms: planner.existingForms };
}
