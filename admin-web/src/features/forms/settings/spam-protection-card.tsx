// The form's spam protection: honeypot fields, a CAPTCHA provider and its fields, the duplicate
// window, a link limit and blocked words.
import { Checkbox, NativeSelect, NumberInput, PasswordInput, SimpleGrid, TextInput } from '@mantine/core';
import type { FormSettingsFieldsFragment } from '../../../gql/graphql';
import { LinesTextarea, SettingsSection, type SettingsForm } from './settings-section';
import { PROVIDER_LABELS, type SettingsLimits } from './settings-values';

interface SpamProtectionCardProps {
  form: SettingsForm;
  current: FormSettingsFieldsFragment;
  limits: SettingsLimits;
}

export function SpamProtectionCard({ form, current, limits }: SpamProtectionCardProps) {
  // The chosen CAPTCHA provider, watched: its fields depend on it (uncontrolled inputs do not re-render).
  const provider = form.useWatchValue('captchaProvider');
  const captcha = limits.captchaProviders.find((entry) => entry.provider === provider);
  const minScore = String(limits.captchaMinScoreDefault);
  return (
    <SettingsSection
      title="Spam protection"
      intro="All off until you turn them on. Spam is answered like any other submission, kept in the form's Spam view for 30 days (less if the retention below is shorter) and not delivered until you say it is not spam."
    >
      <LinesTextarea
        form={form}
        name="honeypotFields"
        label="Honeypot fields"
        description={`Field names a person never fills (hidden from people in your HTML form, not type=hidden), as the form names them (contact[website] too): one a line, at most ${limits.honeypotFieldsMax}. Any of them filled makes a submission spam. Empty: off.`}
      />
      <NativeSelect
        label="CAPTCHA provider"
        description="Your site's backend forwards the visitor's answer; Intake checks it with the provider."
        data={[
          { value: '', label: 'None' },
          ...limits.captchaProviders.map((entry) => ({
            value: entry.provider,
            label: PROVIDER_LABELS[entry.provider],
          })),
        ]}
        key={form.key('captchaProvider')}
        {...form.getInputProps('captchaProvider')}
      />
      {captcha ? (
        <>
          <PasswordInput
            label="Secret key"
            description={
              current.captchaSecretSet && current.captchaProvider === captcha.provider
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
            placeholder={captcha.defaultResponseField}
            key={form.key('captchaResponseField')}
            {...form.getInputProps('captchaResponseField')}
          />
          {captcha.provider === 'RECAPTCHA_V3' ? (
            <NumberInput
              label="Minimum score"
              description={`reCAPTCHA v3 scores from 0 (a bot) to 1 (a person); lower is refused. Empty: ${minScore}.`}
              placeholder={minScore}
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
          max={limits.duplicateWindowMaxSeconds}
          allowDecimal={false}
          key={form.key('duplicateWindowSeconds')}
          {...form.getInputProps('duplicateWindowSeconds')}
        />
        <NumberInput
          label="Maximum number of links"
          description="More links than this across all values is spam. Empty: off."
          min={0}
          max={limits.maxLinksMax}
          allowDecimal={false}
          key={form.key('maxLinks')}
          {...form.getInputProps('maxLinks')}
        />
      </SimpleGrid>
      <LinesTextarea
        form={form}
        name="blockedWords"
        label="Blocked words or phrases"
        description={`A value containing one of them as a whole word (any case) is spam: one a line, at most ${limits.blockedWordsMax}. Empty: off.`}
      />
    </SettingsSection>
  );
}
