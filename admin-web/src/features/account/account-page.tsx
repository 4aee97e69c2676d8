// Each member's own page: who they are (name, which they change here; e-mail and role, which owners
// and admins change), their password, their passkeys, and their own API tokens (the tokens feature's
// section, which the app composes in).
import { NAME_MAX_LENGTH } from '@intake/contract';
import { Button, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { AccountDocument, UpdateAccountDocument } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '../../lib/roles';
import { ChangePasswordSection } from './change-password-section';
import { PasskeysSection } from './passkeys-section';

function ProfileSection({ email, name, role }: { email: string; name: string; role: keyof typeof ROLE_LABELS }) {
  const [{ fetching, error }, updateAccount] = useMutation(UpdateAccountDocument);
  const form = useForm({ mode: 'controlled', initialValues: { name: decodeStoredText(name) } });
  // The name as stored, once loaded or saved.
  const { setValues, resetDirty } = form;
  useEffect(() => {
    setValues({ name: decodeStoredText(name) });
    resetDirty({ name: decodeStoredText(name) });
  }, [name, setValues, resetDirty]);

  const submit = form.onSubmit(async (values) => {
    if (values.name.trim() === '') {
      form.setFieldError('name', 'Enter your name');
      return;
    }
    // `AdminUser`: the shell's signed-in member (the Me query) reloads with the new name.
    const result = await updateAccount({ input: { name: values.name } }, { additionalTypenames: ['AdminUser'] });
    if (result.data) {
      notifySuccess('Name saved');
      return;
    }
    form.setErrors(fieldErrors(result.error));
  });

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="profile-heading">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4" id="profile-heading">
            Profile
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <div>
              <Text size="sm" fw={500}>
                Email
              </Text>
              <Text size="sm" data-testid="account-email" style={{ overflowWrap: 'anywhere' }}>
                {email}
              </Text>
            </div>
            <div>
              <Text size="sm" fw={500}>
                Role
              </Text>
              <Text size="sm" data-testid="account-role">
                {ROLE_LABELS[role]}
              </Text>
              <Text size="xs" c="dimmed">
                {ROLE_DESCRIPTIONS[role]}
              </Text>
            </div>
          </SimpleGrid>
          <TextInput
            label="Name"
            description="How the team sees you"
            required
            autoComplete="name"
            maxLength={NAME_MAX_LENGTH}
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <ErrorAlert error={error} fieldsShownElsewhere={['name']} title="Name not saved" />
          <Button type="submit" loading={fetching} style={{ alignSelf: 'flex-start' }}>
            Save name
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

/** `tokens`: the member's own API tokens, a section the app composes in from the tokens feature. */
export function AccountPage({ tokens }: { tokens: ReactNode }) {
  const [{ data, error }] = useQuery({ query: AccountDocument });

  return (
    <>
      <PageHeader title="Your account" help="account" />
      <Stack gap="lg" maw={1100}>
        {error && !data ? <ErrorAlert error={error} title="Your account could not be loaded" /> : null}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {data ? <ProfileSection email={data.me.email} name={data.me.name} role={data.me.role} /> : null}
          <ChangePasswordSection />
        </SimpleGrid>

        <PasskeysSection />

        {tokens}
      </Stack>
    </>
  );
}
