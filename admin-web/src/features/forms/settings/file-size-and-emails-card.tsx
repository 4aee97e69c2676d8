// How large a file may be, and who is e-mailed about each submission.
import { Button, Checkbox, Group, NumberInput, Paper, Stack } from '@mantine/core';
import { EmailNotConfigured } from '../../../components/email-not-configured';
import { formatBytes } from '../../../lib/format';
import { LinesTextarea, type SettingsForm } from './settings-section';
import { mibOf, type SettingsLimits } from './settings-values';

export function FileSizeAndEmailsCard({ form, limits }: { form: SettingsForm; limits: SettingsLimits }) {
  return (
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
          <Button variant="default" onClick={() => form.setFieldValue('maxFileSizeMiB', mibOf(limits.maxFileSize))}>
            Use the service maximum
          </Button>
        </Group>
        <EmailNotConfigured configured={limits.emailConfigured} />
        <LinesTextarea
          form={form}
          name="notifyEmails"
          label="Notification e-mails"
          description={`Told of every new submission: one address a line, at most ${limits.notifyEmailsMax}. Empty: nobody.`}
        />
        <Checkbox
          label="Link each file in the e-mails"
          description="A download link per file, valid as long as a webhook's (a day unless the operator set WEBHOOK_DOWNLOAD_URL_TTL_SECONDS): anyone holding the e-mail can use it until then. Off: names only."
          key={form.key('notifyFileLinks')}
          {...form.getInputProps('notifyFileLinks', { type: 'checkbox' })}
        />
      </Stack>
    </Paper>
  );
}
