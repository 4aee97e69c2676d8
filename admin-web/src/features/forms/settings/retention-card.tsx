// How long the form's submissions are kept, and what that means for them now.
import { NumberInput, Text } from '@mantine/core';
import type { FormSettingsFieldsFragment } from '../../../gql/graphql';
import { formatDate } from '../../../lib/format';
import { SettingsSection, type SettingsForm } from './settings-section';

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

export function RetentionCard({ form, current }: { form: SettingsForm; current: FormSettingsFieldsFragment }) {
  return (
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
  );
}
