// Every setting of one form: name, whether it accepts submissions, which file types and how large,
// who is e-mailed about each submission, its spam protection and how long its submissions are
// kept. Only changed settings are sent (absent ones stay). Each card is its own component in
// settings/; what a save sends is settingsChanges (settings/settings-changes.ts).
import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { FormSettingsDocument, UpdateFormSettingsDocument, type FormSettingsFieldsFragment } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { BrowserPostingCard } from './settings/browser-posting-card';
import { CapAndScheduleCard } from './settings/cap-and-schedule-card';
import { ConfirmationCard } from './settings/confirmation-card';
import { FileSizeAndEmailsCard } from './settings/file-size-and-emails-card';
import { FieldsCard } from './settings/fields-card';
import { FileTypesCard } from './settings/file-types-card';
import { NameAndStatusCard } from './settings/name-and-status-card';
import { RetentionCard } from './settings/retention-card';
import { settingsChanges } from './settings/settings-changes';
import { settingsValuesOf, type SettingsLimits, type SettingsValues } from './settings/settings-values';
import { SpamProtectionCard } from './settings/spam-protection-card';
import classes from './form-settings-page.module.css';

const FIELDS = [
  'name',
  'enabled',
  'allowedMimeTypes',
  'maxFileSize',
  'notifyEmails',
  'honeypotFields',
  'captchaProvider',
  'captchaSecret',
  'captchaResponseField',
  'captchaMinScore',
  'captchaUnavailableAsSpam',
  'duplicateWindowSeconds',
  'maxLinks',
  'blockedWords',
  'retentionDays',
  'fields',
  'unknownFields',
  'browserPosting',
  'browserOrigins',
  'browserThankYouUrls',
  'browserChallenge',
  'confirmChallengeOff',
  'browserChallengeDifficulty',
  'browserTexts',
  'browserMaxBodySize',
  'browserMaxFileSize',
  'browserMaxFiles',
  'browserReservedFields',
  'confirmationEnabled',
  'confirmationEmailField',
  'confirmationSubject',
  'confirmationTemplate',
  'confirmationSafeFields',
] as const;

interface SettingsEditorProps {
  current: FormSettingsFieldsFragment;
  limits: SettingsLimits;
  /** After a save: read the stored settings again. */
  onSaved: () => void;
}

/** The settings cards and Save, starting from the stored settings (again after each save). */
function SettingsEditor({ current, limits, onSaved }: SettingsEditorProps) {
  const [saving, updateForm] = useMutation(UpdateFormSettingsDocument);
  const form = useForm<SettingsValues>({ mode: 'uncontrolled', initialValues: settingsValuesOf(current) });
  const saveButton = useRef<HTMLButtonElement>(null);
  const wasSaving = useRef(false);

  // Saving disables the button, and the browser drops the focus to <body>: give it back, so a
  // keyboard user is where they were, not at the top of a long page.
  useEffect(() => {
    if (wasSaving.current && !saving.fetching && document.activeElement === document.body) {
      saveButton.current?.focus();
    }
    wasSaving.current = saving.fetching;
  }, [saving.fetching]);

  const submit = form.onSubmit(async (values) => {
    const { input, errors } = settingsChanges(values, current, limits);
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      return;
    }
    if (Object.keys(input).length === 0) {
      notifySuccess('Nothing to save: the settings are unchanged');
      return;
    }
    const result = await updateForm({ id: current.id, input });
    if (result.error || !result.data) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    // The fields show what was stored (trimmed, without repeats, the secret emptied).
    form.setValues(settingsValuesOf(result.data.updateForm));
    form.resetDirty();
    notifySuccess('Settings saved');
    onSaved();
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={760}>
        <NameAndStatusCard form={form} code={current.code} />
        <FieldsCard form={form} />
        <CapAndScheduleCard form={form} current={current} />
        <FileTypesCard form={form} limits={limits} />
        <FileSizeAndEmailsCard form={form} limits={limits} />
        <ConfirmationCard form={form} emailConfigured={limits.emailConfigured} />
        <SpamProtectionCard form={form} current={current} limits={limits} />
        <BrowserPostingCard form={form} limits={limits} />
        <RetentionCard form={form} current={current} limits={limits} />
        <ErrorAlert error={saving.error} fieldsShownElsewhere={FIELDS} title="Settings not saved" />
        <Group className={classes.saveBar}>
          <Button type="submit" loading={saving.fetching} ref={saveButton}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function FormSettingsPage() {
  const { formId = '' } = useParams();
  const [{ data, error, fetching }, refetch] = useQuery({ query: FormSettingsDocument, variables: { id: formId } });
  const current = data?.form;
  const limits = data?.limits;

  if (!data) {
    return (
      <>
        <PageHeader title="Form settings" help="formSettings" />
        {fetching ? <Loader aria-label="Loading settings" /> : <ErrorAlert error={error} />}
      </>
    );
  }
  if (!current || !limits) {
    return (
      <>
        <PageHeader title="Form settings" help="formSettings" />
        <Text role="alert">There is no such form (it may have been deleted).</Text>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Form settings" help="formSettings" />
      <SettingsEditor
        key={current.id}
        current={current}
        limits={limits}
        onSaved={() => refetch({ requestPolicy: 'network-only' })}
      />
    </>
  );
}
