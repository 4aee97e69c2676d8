// Each member's own page: who they are (name, which they change here; e-mail and role, which owners
// and admins change), their password, their passkeys, and their own API tokens, with a warning when
// one ends within a week.
import { NAME_MAX_LENGTH } from '@intake/contract';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useMemo } from 'react';
import { useMutation, useQuery } from 'urql';
import { API_TOKEN_TYPENAMES, ApiTokenList, useApiTokenActions } from '../../components/api-tokens';
import { ErrorAlert } from '../../components/error-alert';
import { NewButton } from '../../components/new-button';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { AccountDocument, UpdateAccountDocument } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '../../lib/roles';
import { endWarning } from '../../lib/token-ends';
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

export function AccountPage() {
  const context = useMemo(() => ({ additionalTypenames: API_TOKEN_TYPENAMES }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: AccountDocument, context });
  const sites = data?.sites ?? [];
  const actions = useApiTokenActions({
    sites,
    role: data?.me.role ?? null,
    reload: () => refetch({ requestPolicy: 'network-only' }),
  });
  const ending = (data?.apiTokens ?? []).filter((token) => endWarning(token.expiresAt) !== null);

  return (
    <>
      <PageHeader title="Your account" />
      <Stack gap="lg" maw={1100}>
        {error && !data ? <ErrorAlert error={error} title="Your account could not be loaded" /> : null}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {data ? <ProfileSection email={data.me.email} name={data.me.name} role={data.me.role} /> : null}
          <ChangePasswordSection />
        </SimpleGrid>

        <PasskeysSection />

        <Stack gap="sm" component="section" aria-labelledby="tokens-heading">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h4" id="tokens-heading">
              Your API tokens
            </Title>
            <NewButton onClick={actions.create}>New token</NewButton>
          </Group>
          <Text size="sm" c="dimmed" maw={760}>
            Tokens you made for your own programs. Each acts as you, never with more than you may do now.
          </Text>
          {ending.length > 0 ? (
            <Alert color="yellow" role="status">
              {ending.length === 1
                ? `${decodeStoredText(ending[0]!.name)} ends within a week: make a new token and give it to the program that uses it before it stops working.`
                : `${ending.length} of your tokens end within a week: make new ones and give them to the programs that use them before they stop working.`}
            </Alert>
          ) : null}
          <ApiTokenList
            tokens={data?.apiTokens}
            sites={sites}
            error={error}
            fetching={fetching}
            caption="Your API tokens that work now"
            onDelete={actions.revoke}
          />
        </Stack>
      </Stack>
      {actions.dialogs}
    </>
  );
}
