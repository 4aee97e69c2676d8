// How long the form's submissions are kept, and what that means for them now.
import { NumberInput, Text } from '@mantine/core';
import type { FormSettingsFieldsFragment } from '../../../gql/graphql';
import { formatDate } from '../../../lib/format';
import { SettingsSection, type SettingsForm } from './settings-section';
import type { SettingsLimits } from './settings-values';

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

interface RetentionCardProps {
  form: SettingsForm;
  current: FormSettingsFieldsFragment;
  limits: SettingsLimits;
}

export function RetentionCard({ form, current, limits }: RetentionCardProps) {
  return (
    <SettingsSection title="Retention">
      <NumberInput
        label="Keep submissions for (days)"
        description={`Older submissions, spam included, are deleted with their files and deliveries within the hour after they expire. 1 to ${limits.retentionDaysMax}; empty: kept until someone deletes them.`}
        min={1}
        max={limits.retentionDaysMax}
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
