// Every setting of one form: name, whether it accepts submissions, which file types and how large,
// who is e-mailed about each submission, its spam protection and how long its submissions are
// kept. Only changed settings are sent (absent ones stay).
import {
  Button,
  Checkbox,
  Code,
  Group,
  Loader,
  NativeSelect,
  NumberInput,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import {
  FormSettingsDocument,
  UpdateFormSettingsDocument,
  type CaptchaProvider,
  type UpdateFormInput,
} from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatBytes, formatDate } from '../../lib/format';

const MIB = 1024 * 1024;
/** The longest duplicate window the API accepts, 30 days (its DUPLICATE_WINDOW_MAX_SECONDS). */
const DUPLICATE_WINDOW_MAX_SECONDS = 30 * 24 * 60 * 60;
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
] as const;

/** The CAPTCHA providers in the order offered, with the field their widget posts the answer in. */
const PROVIDERS: { value: CaptchaProvider; label: string; defaultField: string }[] = [
  { value: 'TURNSTILE', label: 'Cloudflare Turnstile', defaultField: 'cf-turnstile-response' },
  { value: 'HCAPTCHA', label: 'hCaptcha', defaultField: 'h-captcha-response' },
  { value: 'RECAPTCHA_V2', label: 'reCAPTCHA v2', defaultField: 'g-recaptcha-response' },
  { value: 'RECAPTCHA_V3', label: 'reCAPTCHA v3', defaultField: 'g-recaptcha-response' },
];

function providerOf(value: string): CaptchaProvider | null {
  return PROVIDERS.find((provider) => provider.value === value)?.value ?? null;
}

interface SettingsValues {
  name: string;
  enabled: boolean;
  allowedMimeTypes: string[];
  maxFileSizeMiB: number | string;
  notifyEmails: string;
  honeypotFields: string;
  /** '' is no CAPTCHA. */
  captchaProvider: string;
  captchaSecret: string;
  captchaResponseField: string;
  captchaMinScore: number | string;
  captchaUnavailableAsSpam: boolean;
  duplicateWindowSeconds: number | string;
  maxLinks: number | string;
  blockedWords: string;
  retentionDays: number | string;
}

/** Entries typed one a line, trimmed, without blanks or repeats (words may hold commas and spaces). */
function parseLines(text: string): string[] {
  return [...new Set(text.split('\n').map((line) => line.trim()))].filter((line) => line !== '');
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => b[index] === value);
}

/** An optional whole number: '' (or anything not a number) is null, the setting off. */
function optionalNumber(value: number | string): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Addresses typed one a line (or separated by commas), without blanks. */
function parseEmails(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}

/** What the saved retention means for this form's submissions now. */
function retentionLine(retentionDays: number | null, nextDeletionAt: string | null): string {
  if (retentionDays === null) {
    return 'Submissions are kept until someone deletes them.';
  }
  if (nextDeletionAt === null) {
    return 'No submission to delete yet.';
  }
  return `The oldest submission will be deleted on ${formatDate(nextDeletionAt)}.`;
}

function mibOf(bytes: number): number {
  return Math.round((bytes / MIB) * 1000) / 1000;
}

type SettingsForm = UseFormReturnType<SettingsValues>;

/** A list setting typed one item a line. */
function LinesTextarea({
  form,
  name,
  label,
  description,
}: {
  form: SettingsForm;
  name: 'notifyEmails' | 'honeypotFields' | 'blockedWords';
  label: string;
  description: string;
}) {
  return (
    <Textarea
      label={label}
      description={description}
      autosize
      minRows={2}
      key={form.key(name)}
      {...form.getInputProps(name)}
    />
  );
}

/** A titled part of the settings: a region named by its heading, with what it is about under it. */
function SettingsSection({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  const headingId = useId();
  const heading = (
    <Title order={2} size="h4" id={headingId}>
      {title}
    </Title>
  );
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={headingId}>
      <Stack>
        {intro ? (
          <div>
            {heading}
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          </div>
        ) : (
          heading
        )}
        {children}
      </Stack>
    </Paper>
  );
}

export function FormSettingsPage() {
  const { formId = '' } = useParams();
  const [{ data, error, fetching }, refetch] = useQuery({ query: FormSettingsDocument, variables: { id: formId } });
  const [saving, updateForm] = useMutation(UpdateFormSettingsDocument);
  // The chosen CAPTCHA provider, mirrored: its fields depend on it (uncontrolled inputs do not re-render).
  const [provider, setProvider] = useState('');
  const form = useForm<SettingsValues>({
    mode: 'uncontrolled',
    initialValues: {
      name: '',
      enabled: true,
      allowedMimeTypes: [],
      maxFileSizeMiB: '',
      notifyEmails: '',
      honeypotFields: '',
      captchaProvider: '',
      captchaSecret: '',
      captchaResponseField: '',
      captchaMinScore: '',
      captchaUnavailableAsSpam: false,
      duplicateWindowSeconds: '',
      maxLinks: '',
      blockedWords: '',
      retentionDays: '',
    },
    onValuesChange: (values) => setProvider(values.captchaProvider),
  });
  const current = data?.form;
  const limits = data?.limits;

  // The fields start from the stored settings (again after each save).
  useEffect(() => {
    if (current) {
      form.setValues({
        name: decodeStoredText(current.name),
        enabled: current.enabled,
        allowedMimeTypes: current.allowedMimeTypes,
        maxFileSizeMiB: mibOf(current.maxFileSize),
        notifyEmails: current.notifyEmails.join('\n'),
        honeypotFields: current.honeypotFields.map(decodeStoredText).join('\n'),
        captchaProvider: current.captchaProvider ?? '',
        captchaSecret: '',
        captchaResponseField: current.captchaResponseField ? decodeStoredText(current.captchaResponseField) : '',
        captchaMinScore: current.captchaMinScore ?? '',
        captchaUnavailableAsSpam: current.captchaUnavailableAsSpam,
        duplicateWindowSeconds: current.duplicateWindowSeconds ?? '',
        maxLinks: current.maxLinks ?? '',
        blockedWords: current.blockedWords.map(decodeStoredText).join('\n'),
        retentionDays: current.retentionDays ?? '',
      });
      setProvider(current.captchaProvider ?? '');
      form.resetDirty();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the stored settings change
  }, [current]);

  if (!data) {
    return (
      <>
        <PageHeader title="Form settings" />
        {fetching ? <Loader aria-label="Loading settings" /> : <ErrorAlert error={error} />}
      </>
    );
  }
  if (!current || !limits) {
    return (
      <>
        <PageHeader title="Form settings" />
        <Text role="alert">There is no such form (it may have been deleted).</Text>
      </>
    );
  }

  const allTypes = limits.fileTypes.map((type) => type.mimeType);

  // The spam protection settings that changed, into `input`; mistakes a person can fix into `errors`.
  const spamProtectionChanges = (values: SettingsValues, errors: Record<string, string>): UpdateFormInput => {
    const input: UpdateFormInput = {};
    const honeypots = parseLines(values.honeypotFields);
    if (!sameList(honeypots, current.honeypotFields.map(decodeStoredText))) {
      input.honeypotFields = honeypots;
    }
    const chosen = providerOf(values.captchaProvider);
    const secret = values.captchaSecret.trim();
    if (chosen !== (current.captchaProvider ?? null)) {
      input.captchaProvider = chosen;
      if (chosen && secret === '') {
        errors.captchaSecret = "Enter the provider's secret key";
      }
    }
    if (chosen && secret !== '') {
      input.captchaSecret = secret;
    }
    if (chosen) {
      const field = values.captchaResponseField.trim();
      const storedField = current.captchaResponseField ? decodeStoredText(current.captchaResponseField) : '';
      if (field !== storedField) {
        input.captchaResponseField = field === '' ? null : field;
      }
      const score = chosen === 'RECAPTCHA_V3' ? optionalNumber(values.captchaMinScore) : null;
      if (chosen === 'RECAPTCHA_V3' && score !== (current.captchaMinScore ?? null)) {
        input.captchaMinScore = score;
      }
      if (values.captchaUnavailableAsSpam !== current.captchaUnavailableAsSpam) {
        input.captchaUnavailableAsSpam = values.captchaUnavailableAsSpam;
      }
    }
    const duplicateWindow = optionalNumber(values.duplicateWindowSeconds);
    if (duplicateWindow !== (current.duplicateWindowSeconds ?? null)) {
      input.duplicateWindowSeconds = duplicateWindow;
    }
    const links = optionalNumber(values.maxLinks);
    if (links !== (current.maxLinks ?? null)) {
      input.maxLinks = links;
    }
    const words = parseLines(values.blockedWords);
    if (!sameList(words, current.blockedWords.map(decodeStoredText))) {
      input.blockedWords = words;
    }
    return input;
  };
  const captcha = PROVIDERS.find((entry) => entry.value === provider);

  const submit = form.onSubmit(async (values) => {
    const input: UpdateFormInput = {};
    const errors: Record<string, string> = {};
    const name = values.name.trim();
    if (name !== decodeStoredText(current.name)) {
      input.name = name;
    }
    if (values.enabled !== current.enabled) {
      input.enabled = values.enabled;
    }
    if (values.allowedMimeTypes.length === 0) {
      errors.allowedMimeTypes = 'Choose at least one file type';
    } else if (!sameSet(values.allowedMimeTypes, current.allowedMimeTypes)) {
      // All of them is the default list: null keeps the form on the defaults.
      input.allowedMimeTypes = sameSet(values.allowedMimeTypes, allTypes) ? null : values.allowedMimeTypes;
    }
    const mib = typeof values.maxFileSizeMiB === 'number' ? values.maxFileSizeMiB : Number.NaN;
    if (!Number.isFinite(mib) || mib <= 0) {
      errors.maxFileSize = 'Enter a size above 0';
    } else if (mib !== mibOf(current.maxFileSize)) {
      const bytes = Math.round(mib * MIB);
      // The service maximum is the default: null follows MAX_FILE_SIZE if the operator changes it.
      input.maxFileSize = bytes === limits.maxFileSize ? null : bytes;
    }
    const emails = parseEmails(values.notifyEmails);
    if (!sameSet(emails, current.notifyEmails) || emails.length !== current.notifyEmails.length) {
      input.notifyEmails = emails;
    }
    Object.assign(input, spamProtectionChanges(values, errors));
    const retentionDays = optionalNumber(values.retentionDays);
    if (retentionDays !== (current.retentionDays ?? null)) {
      input.retentionDays = retentionDays;
    }
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      return;
    }
    if (Object.keys(input).length === 0) {
      notifySuccess('Nothing to save: the settings are unchanged');
      return;
    }
    const result = await updateForm({ id: current.id, input });
    if (result.error) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    notifySuccess('Settings saved');
    refetch({ requestPolicy: 'network-only' });
  });

  return (
    <>
      <PageHeader title="Form settings" />
      <form onSubmit={submit} noValidate>
        <Stack maw={760}>
          <Paper withBorder p="lg">
            <Stack>
              <TextInput label="Name" required key={form.key('name')} {...form.getInputProps('name')} />
              <Text size="sm">
                Code: <Code>{current.code}</Code>
              </Text>
              <Switch
                label="Accepts submissions"
                description="When off, the form answers every submission with an error and stores nothing."
                key={form.key('enabled')}
                {...form.getInputProps('enabled', { type: 'checkbox' })}
              />
            </Stack>
          </Paper>

          <Paper withBorder p="lg">
            <Checkbox.Group
              label="Allowed file types"
              description={`Files of other types are refused; all of them is the default. A submission carries at most ${limits.maxFiles} files.`}
              key={form.key('allowedMimeTypes')}
              {...form.getInputProps('allowedMimeTypes')}
            >
              <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm" spacing="xs">
                {limits.fileTypes.map((type) => (
                  <Checkbox
                    key={type.mimeType}
                    value={type.mimeType}
                    label={type.label}
                    description={type.extensions.map((extension) => `.${extension}`).join(', ')}
                  />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          </Paper>

          <Paper withBorder p="lg">
            <Stack>
              <Group align="flex-end" gap="sm">
                <NumberInput
                  label="Maximum file size (MiB)"
                  description={`Per file; at most ${formatBytes(limits.maxFileSize)} (the service maximum).`}
                  min={0}
                  max={mibOf(limits.maxFileSize)}
                  decimalScale={3}
                  step={1}
                  w={280}
                  key={form.key('maxFileSizeMiB')}
                  {...form.getInputProps('maxFileSizeMiB')}
                  error={form.errors.maxFileSize}
                />
                <Button
                  variant="default"
                  onClick={() => form.setFieldValue('maxFileSizeMiB', mibOf(limits.maxFileSize))}
                >
                  Use the service maximum
                </Button>
              </Group>
              <LinesTextarea
                form={form}
                name="notifyEmails"
                label="Notification e-mails"
                description="Told of every new submission: one address a line, at most 10. Empty: nobody."
              />
            </Stack>
          </Paper>

          <SettingsSection
            title="Spam protection"
            intro="All off until you turn them on. Spam is answered like any other submission, kept in the form's Spam view for 30 days (less if the retention below is shorter) and not delivered until you say it is not spam."
          >
            <LinesTextarea
              form={form}
              name="honeypotFields"
              label="Honeypot fields"
              description="Field names a person never fills (hidden from people in your HTML form, not type=hidden): one a line, at most 20. Any of them filled makes a submission spam. Empty: off."
            />
            <NativeSelect
              label="CAPTCHA provider"
              description="Your site's backend forwards the visitor's answer; Intake checks it with the provider."
              data={[{ value: '', label: 'None' }, ...PROVIDERS.map(({ value, label }) => ({ value, label }))]}
              key={form.key('captchaProvider')}
              {...form.getInputProps('captchaProvider')}
            />
            {captcha ? (
              <>
                <PasswordInput
                  label="Secret key"
                  description={
                    current.captchaSecretSet && current.captchaProvider === captcha.value
                      ? 'A secret is stored. Leave empty to keep it, or enter a new one to replace it.'
                      : "The provider's secret key for your site: required. It is stored encrypted and never shown again."
                  }
                  autoComplete="off"
                  key={form.key('captchaSecret')}
                  {...form.getInputProps('captchaSecret')}
                />
                <TextInput
                  label="Answer field"
                  description="The field holding the visitor's answer; removed before the submission is stored. Empty: the provider's usual field."
                  placeholder={captcha.defaultField}
                  key={form.key('captchaResponseField')}
                  {...form.getInputProps('captchaResponseField')}
                />
                {captcha.value === 'RECAPTCHA_V3' ? (
                  <NumberInput
                    label="Minimum score"
                    description="reCAPTCHA v3 scores from 0 (a bot) to 1 (a person); lower is refused. Empty: 0.5."
                    placeholder="0.5"
                    min={0}
                    max={1}
                    step={0.1}
                    decimalScale={2}
                    w={280}
                    key={form.key('captchaMinScore')}
                    {...form.getInputProps('captchaMinScore')}
                  />
                ) : null}
                <Checkbox
                  label="Accept submissions as spam when the provider cannot be reached"
                  description="Otherwise they are refused with 503 and the site's backend should retry."
                  key={form.key('captchaUnavailableAsSpam')}
                  {...form.getInputProps('captchaUnavailableAsSpam', { type: 'checkbox' })}
                />
              </>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput
                label="Duplicate window (seconds)"
                description="The same submission again within this time is not stored twice. Empty: off."
                min={1}
                max={DUPLICATE_WINDOW_MAX_SECONDS}
                allowDecimal={false}
                key={form.key('duplicateWindowSeconds')}
                {...form.getInputProps('duplicateWindowSeconds')}
              />
              <NumberInput
                label="Maximum number of links"
                description="More links than this across all values is spam. Empty: off."
                min={0}
                max={1000}
                allowDecimal={false}
                key={form.key('maxLinks')}
                {...form.getInputProps('maxLinks')}
              />
            </SimpleGrid>
            <LinesTextarea
              form={form}
              name="blockedWords"
              label="Blocked words or phrases"
              description="A value containing one of them as a whole word (any case) is spam: one a line, at most 200. Empty: off."
            />
          </SettingsSection>

          <SettingsSection title="Retention">
            <NumberInput
              label="Keep submissions for (days)"
              description="Older submissions, spam included, are deleted with their files and deliveries within the hour after they expire. 1 to 3650; empty: kept until someone deletes them."
              min={1}
              max={3650}
              allowDecimal={false}
              w={{ base: '100%', sm: 520 }}
              key={form.key('retentionDays')}
              {...form.getInputProps('retentionDays')}
            />
            <Text size="sm" data-testid="retention-next-deletion">
              {retentionLine(current.retentionDays ?? null, current.retentionNextDeletionAt ?? null)}
            </Text>
          </SettingsSection>

          <ErrorAlert error={saving.error} fieldsShownElsewhere={FIELDS} title="Settings not saved" />
          <Group>
            <Button type="submit" loading={saving.fetching}>
              Save settings
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
