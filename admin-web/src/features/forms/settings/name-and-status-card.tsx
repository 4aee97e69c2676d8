// The form's name, its code (fixed) and whether it accepts submissions.
import { Code, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { SettingsForm } from './settings-section';

export function NameAndStatusCard({ form, code }: { form: SettingsForm; code: string }) {
  return (
    <Paper withBorder p="lg">
      <Stack>
        <TextInput label="Name" required key={form.key('name')} {...form.getInputProps('name')} />
        <Text size="sm">
          Code: <Code>{code}</Code>
        </Text>
        <Switch
          label="Accepts submissions"
          description="When off, the form answers every submission with an error and stores nothing."
          key={form.key('enabled')}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
      </Stack>
    </Paper>
  );
}
