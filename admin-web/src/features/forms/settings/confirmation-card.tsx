// The confirmation e-mail to the person who submitted (docs/confirmations.md): whether it is sent, to
// which declared e-mail field's address, its subject and message, and which fields it may repeat.
// Only choice, yes-or-no and number fields can be repeated: the message never echoes free text.
import { Checkbox, Group, Text, Textarea, TextInput } from '@mantine/core';
import { EmailFieldSelect, SettingsSection, type SettingsForm } from './settings-section';

const SAFE_TYPES = new Set(['CHOICE', 'BOOLEAN', 'NUMBER']);

export function ConfirmationCard({ form, emailConfigured }: { form: SettingsForm; emailConfigured: boolean }) {
  const fields = form.useWatchValue('fields').filter((field) => field.name.trim() !== '');
  const safeFields = fields.filter((field) => SAFE_TYPES.has(field.type)).map((field) => field.name.trim());
  return (
    <SettingsSection
      title="Confirmation e-mail"
      intro="An e-mail to the address the visitor typed, with the submission's signed receipt attached; never for spam, at most a few an hour per address. Anyone can type someone else's address, so it never repeats what the visitor wrote: only the form's name, the time, the reference and the fields you mark safe."
    >
      {emailConfigured ? null : (
        <Text size="sm" c="dimmed">
          E-mail is not configured on this server (SMTP_URL is unset): confirmations are not sent.
        </Text>
      )}
      <Checkbox
        label="Send a confirmation to the submitter"
        key={form.key('confirmationEnabled')}
        {...form.getInputProps('confirmationEnabled', { type: 'checkbox' })}
      />
      <Group align="flex-start">
        <EmailFieldSelect form={form} name="confirmationEmailField" />
      </Group>
      <TextInput
        label="Subject"
        description="One line. Empty: We received your submission to {{form}}."
        key={form.key('confirmationSubject')}
        {...form.getInputProps('confirmationSubject')}
      />
      <Textarea
        label="Message"
        description="Plain text. Placeholders: {{form}}, {{time}}, {{submission}} (the reference), and {{field:NAME}} for a field marked safe below. Empty: a short thank-you."
        autosize
        minRows={4}
        key={form.key('confirmationTemplate')}
        {...form.getInputProps('confirmationTemplate')}
      />
      <Checkbox.Group
        label="Fields safe to repeat"
        description={
          safeFields.length === 0
            ? 'Only choice, yes-or-no and number fields can be repeated; the form declares none.'
            : 'Only choice, yes-or-no and number fields: their values are yours, not free text.'
        }
        key={form.key('confirmationSafeFields')}
        {...form.getInputProps('confirmationSafeFields')}
      >
        <Group mt="xs">
          {safeFields.map((name) => (
            <Checkbox key={name} value={name} label={name} />
          ))}
        </Group>
      </Checkbox.Group>
    </SettingsSection>
  );
}
