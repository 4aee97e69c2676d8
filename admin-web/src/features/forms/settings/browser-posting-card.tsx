// Browser posting (docs/static-sites.md): whether the form takes posts straight from visitors'
// browsers, from which pages, where they go after, the challenge, the visitor's texts and limits.
import { Checkbox, NativeSelect, NumberInput, SimpleGrid, Text, Textarea, TextInput } from '@mantine/core';
import { formatBytes } from '../../../lib/format';
import { SettingsSection, type SettingsForm } from './settings-section';
import { BROWSER_TEXT_LABELS, mibOf, type SettingsLimits } from './settings-values';

const CHALLENGES = [
  { value: 'REQUIRED', label: 'Required: posts without a valid answer are refused' },
  { value: 'RECORD_ONLY', label: 'Record only: posts without a valid answer are kept as spam' },
  { value: 'OFF', label: 'Off: any script may post' },
];

export function BrowserPostingCard({ form, limits }: { form: SettingsForm; limits: SettingsLimits }) {
  const challenge = form.useWatchValue('browserChallenge');
  return (
    <SettingsSection
      title="Browser posting"
      intro="For a site without a backend: the form takes posts straight from visitors' browsers on the pages you list, without the API key or the site token. The API page then shows an HTML form to paste."
    >
      <Checkbox
        label="Take posts from visitors' browsers"
        key={form.key('browserPosting')}
        {...form.getInputProps('browserPosting', { type: 'checkbox' })}
      />
      <Textarea
        label="Allowed origins"
        description="The exact origins of your pages, one a line: https://www.example.org, or http://localhost:1313 for a preview. No paths, no wildcards."
        autosize
        minRows={2}
        key={form.key('browserOrigins')}
        {...form.getInputProps('browserOrigins')}
      />
      <Textarea
        label="Thank-you addresses"
        description="Where a browser goes after a post, one a line: the first, or another one a _next field names. Empty: Intake's own thank-you page, with the signed receipt."
        autosize
        minRows={2}
        key={form.key('browserThankYouUrls')}
        {...form.getInputProps('browserThankYouUrls')}
      />
      <NativeSelect
        label="Challenge"
        description="A proof of work the visitor's browser solves (ALTCHA, served by Intake). A browser without JavaScript cannot solve it."
        data={CHALLENGES}
        key={form.key('browserChallenge')}
        {...form.getInputProps('browserChallenge')}
      />
      {challenge === 'OFF' ? (
        <Checkbox
          label="I understand that any script can then post to this form without any work"
          key={form.key('confirmChallengeOff')}
          {...form.getInputProps('confirmChallengeOff', { type: 'checkbox' })}
        />
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput
          label="Challenge difficulty"
          description={`Average attempts a browser makes; empty: ${limits.challengeDifficultyDefault}.`}
          min={10}
          max={1_000_000}
          allowDecimal={false}
          key={form.key('browserChallengeDifficulty')}
          {...form.getInputProps('browserChallengeDifficulty')}
        />
        <NumberInput
          label="Files per post"
          description={`At most ${limits.maxFiles}; the default is ${limits.browserMaxFiles}.`}
          min={0}
          max={limits.maxFiles}
          allowDecimal={false}
          key={form.key('browserMaxFiles')}
          {...form.getInputProps('browserMaxFiles')}
        />
        <NumberInput
          label="Bytes per post (MiB)"
          description={`At most ${formatBytes(limits.maxBodySize)}; the default is ${formatBytes(limits.browserMaxBodySize)}.`}
          min={0}
          max={mibOf(limits.maxBodySize)}
          decimalScale={3}
          key={form.key('browserMaxBodySizeMiB')}
          {...form.getInputProps('browserMaxBodySizeMiB')}
          error={form.errors.browserMaxBodySize}
        />
        <NumberInput
          label="Bytes per file (MiB)"
          description={`At most the form's file size; the default is ${formatBytes(limits.browserMaxFileSize)}.`}
          min={0}
          max={mibOf(limits.maxFileSize)}
          decimalScale={3}
          key={form.key('browserMaxFileSizeMiB')}
          {...form.getInputProps('browserMaxFileSizeMiB')}
          error={form.errors.browserMaxFileSize}
        />
      </SimpleGrid>
      <Checkbox
        label="Understand _next, _subject, _replyto and _gotcha"
        description="The field names forms written for other services use (a _next address only when it is one of the thank-you addresses)."
        key={form.key('browserReservedFields')}
        {...form.getInputProps('browserReservedFields', { type: 'checkbox' })}
      />
      <Text size="sm">
        The visitor&apos;s thank-you and refusal pages, in your language (empty: the default in English).
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {Object.entries(BROWSER_TEXT_LABELS).map(([key, label]) => (
          <TextInput
            key={form.key(`browserTexts.${key}`)}
            label={label}
            {...form.getInputProps(`browserTexts.${key}`)}
          />
        ))}
      </SimpleGrid>
    </SettingsSection>
  );
}
