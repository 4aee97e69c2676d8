// API tokens for integrators: long-lived bearer tokens for /graphql. The secret is in the create
// answer only, so it is shown once, in a dialog, with a Copy button. Each token has a level, maybe
// a list of sites, and an end (docs/teams.md); the list warns a week before a token ends. An owner or
// admin sees every member's tokens here; each member's own are also on their account page.
import { Text } from '@mantine/core';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { API_TOKEN_TYPENAMES, ApiTokenList, useApiTokenActions } from './api-tokens';
import { NewButton } from '../../components/new-button';
import { PageHeader } from '../../components/page-header';
import { ApiTokensDocument } from '../../gql/graphql';

export function TokensPage() {
  const context = useMemo(() => ({ additionalTypenames: API_TOKEN_TYPENAMES }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: ApiTokensDocument, context });
  const sites = data?.sites ?? [];
  const actions = useApiTokenActions({
    sites,
    role: data?.me.role ?? null,
    reload: () => refetch({ requestPolicy: 'network-only' }),
  });

  return (
    <>
      <PageHeader
        title="API tokens"
        help="apiTokens"
        actions={<NewButton onClick={actions.create}>New token</NewButton>}
      />
      <Text c="dimmed" mb="md" maw={760}>
        Tokens let your own programs use the admin API at /graphql with the header Authorization: Bearer followed by the
        token. Each acts as you, never with more than you may do now, within its level and sites, until it ends; delete
        one and it stops working at once.
      </Text>
      <ApiTokenList
        tokens={data?.apiTokens}
        sites={sites}
        error={error}
        fetching={fetching}
        caption="API tokens that work now"
        onDelete={actions.revoke}
      />
      {actions.dialogs}
    </>
  );
}
