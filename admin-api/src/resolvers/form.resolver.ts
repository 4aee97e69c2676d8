// Forms of a site. Deletion is soft and keeps the form's submissions: they are customer data that
// an administrator may still need to read or export, so they stay readable through
// `submissions(formId)` / `submission(id)` and are removed one by one with `deleteSubmission`. The
// deleted form disappears from `forms`, cannot be updated, and the gateway refuses its code.
import { createCaptchaSecretBox, FormSchema, generateFormCode, type Form } from '@intake/shared';
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { presentForm } from '../presenters/form.js';
import { badUserInput } from '../schema/errors.js';
import { CreateFormInput, UpdateFormInput } from '../types/form.input.js';
import { FormType } from '../types/form.type.js';
import { parseNotifyEmails } from '../validation/delivery-fields.js';
import { parseId, parseMaxFileSize, parseMimeTypes, parseName } from '../validation/fields.js';
import {
  DUPLICATE_WINDOW_MAX_SECONDS,
  MAX_LINKS_MAX,
  parseBlockedWords,
  parseCaptchaSecret,
  parseHoneypotFields,
  parseMinScore,
  parseOptionalCount,
  parseResponseField,
} from '../validation/spam-fields.js';
import { findLiveForm, liveFormsOf, requireLiveForm, requireLiveSite } from './lookup.js';

@Authorized()
@Resolver()
export class FormResolver {
  @Query(() => [FormType], { description: 'Forms of a live site that are not deleted, oldest first.' })
  async forms(@Arg('siteId', () => ID) siteId: string, @Ctx() { em, deps }: AdminContext): Promise<FormType[]> {
    const site = await requireLiveSite(em, parseId(siteId, 'siteId'));
    const forms = await liveFormsOf(em, site.id);
    return forms.map((form) => presentForm(form, deps.services.config.limits.maxFileSize));
  }

  @Query(() => FormType, { nullable: true, description: 'Null when there is no such form or it was deleted.' })
  async form(@Arg('id', () => ID) id: string, @Ctx() { em, deps }: AdminContext): Promise<FormType | null> {
    const form = await findLiveForm(em, parseId(id, 'id'));
    return form === null ? null : presentForm(form, deps.services.config.limits.maxFileSize);
  }

  @Mutation(() => FormType)
  async createForm(
    @Arg('input', () => CreateFormInput) input: CreateFormInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<FormType> {
    const siteId = parseId(input.siteId, 'input.siteId');
    const name = parseName(input.name, 'input.name');
    const notifyEmails = parseNotifyEmails(input.notifyEmails ?? null, 'input.notifyEmails');
    const site = await requireLiveSite(em, siteId);
    const form = em.create(FormSchema, { site, name, code: generateFormCode(), enabled: true, notifyEmails });
    await em.flush();
    return presentForm(form, deps.services.config.limits.maxFileSize);
  }

  @Mutation(() => FormType)
  async updateForm(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateFormInput) input: UpdateFormInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<FormType> {
    const formId = parseId(id, 'id');
    const globalMaxFileSize = deps.services.config.limits.maxFileSize;
    // Validate everything first, so a bad field changes nothing.
    const name = input.name === undefined ? undefined : parseName(input.name, 'input.name');
    if (input.enabled === null) {
      throw badUserInput('input.enabled', 'cannot be null');
    }
    const allowedMimeTypes =
      input.allowedMimeTypes === undefined
        ? undefined
        : parseMimeTypes(input.allowedMimeTypes, 'input.allowedMimeTypes');
    const maxFileSize =
      input.maxFileSize === undefined
        ? undefined
        : parseMaxFileSize(input.maxFileSize, globalMaxFileSize, 'input.maxFileSize');

    const notifyEmails =
      input.notifyEmails === undefined ? undefined : parseNotifyEmails(input.notifyEmails, 'input.notifyEmails');
    const spamSettings = parseSpamSettings(input);

    const form = await requireLiveForm(em, formId);
    applySpamSettings(form, spamSettings, deps.services.config.tokenEncryptionKey);
    if (notifyEmails !== undefined) {
      form.notifyEmails = notifyEmails;
    }
    if (name !== undefined) {
      form.name = name;
    }
    if (input.enabled !== undefined) {
      form.enabled = input.enabled;
    }
    if (allowedMimeTypes !== undefined) {
      form.allowedMimeTypes = allowedMimeTypes;
    }
    if (maxFileSize !== undefined) {
      form.maxFileSize = maxFileSize;
    }
    await em.flush();
    return presentForm(form, globalMaxFileSize);
  }

  @Mutation(() => Boolean, {
    description: 'Soft delete; false when there was no such live form. Its submissions are kept.',
  })
  async deleteForm(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    const now = new Date();
    const deleted = await em.nativeUpdate(
      FormSchema,
      { id: parseId(id, 'id'), deletedAt: null },
      { deletedAt: now, updatedAt: now },
    );
    return deleted > 0;
  }
}

/** The spam protection part of UpdateFormInput, checked; undefined leaves a setting as it is. */
interface SpamSettings {
  honeypotFields?: string[] | null;
  captchaProvider?: Form['captchaProvider'];
  captchaSecret?: string;
  captchaResponseField?: string | null;
  captchaMinScore?: number | null;
  captchaUnavailableAsSpam?: boolean;
  duplicateWindowSeconds?: number | null;
  maxLinks?: number | null;
  blockedWords?: string[] | null;
}

function parseSpamSettings(input: UpdateFormInput): SpamSettings {
  const settings: SpamSettings = {};
  if (input.honeypotFields !== undefined) {
    settings.honeypotFields = parseHoneypotFields(input.honeypotFields, 'input.honeypotFields');
  }
  if (input.captchaProvider !== undefined) {
    settings.captchaProvider = input.captchaProvider;
  }
  if (input.captchaSecret === null) {
    throw badUserInput('input.captchaSecret', 'cannot be null; set captchaProvider to null to turn the CAPTCHA off');
  }
  if (input.captchaSecret !== undefined) {
    settings.captchaSecret = parseCaptchaSecret(input.captchaSecret, 'input.captchaSecret');
  }
  if (input.captchaResponseField !== undefined) {
    settings.captchaResponseField = parseResponseField(input.captchaResponseField, 'input.captchaResponseField');
  }
  if (input.captchaMinScore !== undefined) {
    settings.captchaMinScore = parseMinScore(input.captchaMinScore, 'input.captchaMinScore');
  }
  if (input.captchaUnavailableAsSpam === null) {
    throw badUserInput('input.captchaUnavailableAsSpam', 'cannot be null');
  }
  if (input.captchaUnavailableAsSpam !== undefined) {
    settings.captchaUnavailableAsSpam = input.captchaUnavailableAsSpam;
  }
  if (input.duplicateWindowSeconds !== undefined) {
    settings.duplicateWindowSeconds = parseOptionalCount(
      input.duplicateWindowSeconds,
      1,
      DUPLICATE_WINDOW_MAX_SECONDS,
      'input.duplicateWindowSeconds',
    );
  }
  if (input.maxLinks !== undefined) {
    settings.maxLinks = parseOptionalCount(input.maxLinks, 0, MAX_LINKS_MAX, 'input.maxLinks');
  }
  if (input.blockedWords !== undefined) {
    settings.blockedWords = parseBlockedWords(input.blockedWords, 'input.blockedWords');
  }
  return settings;
}

/**
 * Applies checked settings. A CAPTCHA provider needs a secret: given with it, or kept from before
 * when the provider does not change (another provider's secret would not work). Turning the
 * CAPTCHA off forgets the secret and the answer field.
 */
function applySpamSettings(form: Form, settings: SpamSettings, tokenEncryptionKey: Buffer): void {
  const provider = settings.captchaProvider === undefined ? (form.captchaProvider ?? null) : settings.captchaProvider;
  if (provider === null) {
    if (settings.captchaSecret !== undefined) {
      throw badUserInput('input.captchaSecret', 'needs a captchaProvider');
    }
    form.captchaProvider = null;
    form.captchaSealedSecret = null;
    form.captchaResponseField = null;
  } else {
    const changed = provider !== (form.captchaProvider ?? null);
    if (settings.captchaSecret === undefined && (changed || !form.captchaSealedSecret)) {
      throw badUserInput('input.captchaSecret', 'is required when a CAPTCHA provider is set or changed');
    }
    form.captchaProvider = provider;
    if (settings.captchaSecret !== undefined) {
      form.captchaSealedSecret = createCaptchaSecretBox(tokenEncryptionKey).seal(settings.captchaSecret);
    }
  }
  if (settings.captchaResponseField !== undefined && provider !== null) {
    form.captchaResponseField = settings.captchaResponseField;
  }
  if (settings.captchaMinScore !== undefined) {
    form.captchaMinScore = settings.captchaMinScore;
  }
  if (settings.captchaUnavailableAsSpam !== undefined) {
    form.captchaUnavailableAsSpam = settings.captchaUnavailableAsSpam;
  }
  if (settings.honeypotFields !== undefined) {
    form.honeypotFields = settings.honeypotFields;
  }
  if (settings.duplicateWindowSeconds !== undefined) {
    form.duplicateWindowSeconds = settings.duplicateWindowSeconds;
  }
  if (settings.maxLinks !== undefined) {
    form.maxLinks = settings.maxLinks;
  }
  if (settings.blockedWords !== undefined) {
    form.blockedWords = settings.blockedWords;
  }
}
