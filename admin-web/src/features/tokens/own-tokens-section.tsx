// A member's own API tokens, as their account page shows them (the app puts this section there):
// the list, New token, and a warning when one ends within a week.
import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { NewButton } from '../../components/new-button';
import { OwnApiTokensDocument } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { endWarning } from '../../lib/token-ends';
import { API_TOKEN_TYPENAMES, ApiTokenList, useApiTokenActions } from './api-tokens';

export function OwnTokensSection() {
  const context = useMemo(() => ({ additionalTypenames: API_TOKEN_TYPENAMES }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: OwnApiTokensDocument, context });
  const sites = data?.sites ?? [];
  const actions = useApiTokenActions({
    sites,
    role: data?.me.role ?? null,
    reload: () => refetch({ requestPolicy: 'network-only' }),
  });
  const ending = (data?.apiTokens ?? []).filter((token) => endWarning(token.expiresAt) !== null);

  return (
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
      {actions.dialogs}
    </Stack>
  );
}
