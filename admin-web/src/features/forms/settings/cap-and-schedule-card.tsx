// How many submissions the form takes, per address too, and between which times; and whether it
// takes any now (docs/submissions.md#caps-and-a-schedule).
import { Group, NumberInput, Text, TextInput } from '@mantine/core';
import type { FormSettingsFieldsFragment } from '../../../gql/graphql';
import { EmailFieldSelect, SettingsSection, type SettingsForm } from './settings-section';
import { FormClosedBadge } from '../form-closed-badge';

const WIDE = { base: '100%', sm: 260 };

/** What the saved cap means now: how many were counted, or that there is none. */
function capLine(current: FormSettingsFieldsFragment): string {
  if (current.maxSubmissions == null) {
    return 'No cap: the form takes submissions as long as it is open.';
  }
  return `${current.cappedSubmissions ?? 0} of ${current.maxSubmissions} submissions taken (spam is not counted; a deleted submission still counts).`;
}

export function CapAndScheduleCard({ form, current }: { form: SettingsForm; current: FormSettingsFieldsFragment }) {
  return (
    <SettingsSection title="Cap and schedule">
      <Group gap="xs">
        <Text size="sm" data-testid="cap-line">
          {capLine(current)}
        </Text>
        <FormClosedBadge reason={current.closedReason ?? null} opensAt={current.opensAt ?? null} />
      </Group>
      <Group align="flex-start">
        <NumberInput
          label="Most submissions"
          description="Empty: no cap. Further submissions are refused (403 form_closed)."
          min={1}
          allowDecimal={false}
          w={WIDE}
          key={form.key('maxSubmissions')}
          {...form.getInputProps('maxSubmissions')}
        />
        <NumberInput
          label="Most submissions per address"
          description="Counted by the e-mail field chosen beside it."
          min={1}
          allowDecimal={false}
          w={WIDE}
          key={form.key('maxSubmissionsPerAddress')}
          {...form.getInputProps('maxSubmissionsPerAddress')}
        />
        <EmailFieldSelect form={form} name="capAddressField" />
      </Group>
      <Group align="flex-start">
        <TextInput
          type="datetime-local"
          label="Opens at"
          description="Your time zone. Empty: open now."
          w={WIDE}
          key={form.key('opensAt')}
          {...form.getInputProps('opensAt')}
        />
        <TextInput
          type="datetime-local"
          label="Closes at"
          description="Your time zone. Empty: never closes."
          w={WIDE}
          key={form.key('closesAt')}
          {...form.getInputProps('closesAt')}
        />
      </Group>
    </SettingsSection>
  );
}
