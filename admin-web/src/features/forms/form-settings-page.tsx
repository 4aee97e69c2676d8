// Every setting of one form: name, whether it accepts submissions, which file types and how large,
// and who is e-mailed about each submission. Only changed settings are sent (absent ones stay).
import {
  Button,
  Checkbox,
  Code,
  Group,
  Loader,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { graphql } from '../../gql';
import type { UpdateFormInput } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatBytes } from '../../lib/format';

const FormSettingsQuery = graphql(`
  query FormSettings($id: ID!) {
    form(id: $id) {
      id
      name
      code
      enabled
      allowedMimeTypes
      usesDefaultMimeTypes
      maxFileSize
      notifyEmails
    }
    limits {
      maxFileSize
      maxFiles
      fileTypes {
        mimeType
        label
        extensions
      }
    }
  }
`);

const UpdateFormSettingsMutation = graphql(`
  mutation UpdateFormSettings($id: ID!, $input: UpdateFormInput!) {
    updateForm(id: $id, input: $input) {
      id
      name
      enabled
      allowedMimeTypes
      usesDefaultMimeTypes
      maxFileSize
      notifyEmails
      updatedAt
    }
  }
`);

const MIB = 1024 * 1024;
const FIELDS = ['name', 'enabled', 'allowedMimeTypes', 'maxFileSize', 'notifyEmails'] as const;

interface SettingsValues {
  name: string;
  enabled: boolean;
  allowedMimeTypes: string[];
  maxFileSizeMiB: number | string;
  notifyEmails: string;
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

function mibOf(bytes: number): number {
  return Math.round((bytes / MIB) * 1000) / 1000;
}

export function FormSettingsPage() {
  const { formId = '' } = useParams();
  const [{ data, error, fetching }, refetch] = useQuery({ query: FormSettingsQuery, variables: { id: formId } });
  const [saving, updateForm] = useMutation(UpdateFormSettingsMutation);
  const form = useForm<SettingsValues>({
    mode: 'uncontrolled',
    initialValues: { name: '', enabled: true, allowedMimeTypes: [], maxFileSizeMiB: '', notifyEmails: '' },
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
      });
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
              <Textarea
                label="Notification e-mails"
                description="Told of every new submission: one address a line, at most 10. Empty: nobody."
                autosize
                minRows={2}
                key={form.key('notifyEmails')}
                {...form.getInputProps('notifyEmails')}
              />
            </Stack>
          </Paper>

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
