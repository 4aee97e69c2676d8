// What the settings cards share: the form they edit, a titled section, a list typed one a line, and
// the choice of a declared e-mail field.
import { Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useId, type ReactNode } from 'react';
import type { SettingsValues } from './settings-values';

export type SettingsForm = UseFormReturnType<SettingsValues>;

/** A list setting typed one item a line. */
export function LinesTextarea({
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

/**
 * A choice of the form's declared e-mail fields (the fields being edited, so a field declared a
 * moment ago is offered); empty means none.
 */
export function EmailFieldSelect({
  form,
  name,
}: {
  form: SettingsForm;
  name: 'capAddressField' | 'confirmationEmailField';
}) {
  const emailFields = form
    .useWatchValue('fields')
    .filter((field) => field.type === 'EMAIL' && field.name.trim() !== '')
    .map((field) => field.name.trim());
  return (
    <Select
      label="Address field"
      description={emailFields.length === 0 ? 'Declare an e-mail field first.' : 'A declared e-mail field.'}
      data={emailFields}
      clearable
      w={{ base: '100%', sm: 260 }}
      key={form.key(name)}
      {...form.getInputProps(name)}
      value={form.getValues()[name] || null}
      onChange={(value) => form.setFieldValue(name, value ?? '')}
    />
  );
}

/** A titled part of the settings: a region named by its heading, with what it is about under it. */
export function SettingsSection({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
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
