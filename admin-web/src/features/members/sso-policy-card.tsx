// The team's policy on passwords beside single sign-on, for owners only (the API refuses anyone
// else) and only where single sign-on is configured; on the Members page, beside the two-factor policy.
import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { notifyOutcome } from '../../components/notify';
import { SsoPolicyDocument, SsoPolicyRoleDocument, UpdateSsoPolicyDocument } from '../../gql/graphql';

export function SsoPolicyCard() {
  const [{ data: roleData }] = useQuery({ query: SsoPolicyRoleDocument });
  const owner = roleData?.me.role === 'owner';
  const [{ data }] = useQuery({ query: SsoPolicyDocument, pause: !owner });
  const [{ fetching }, update] = useMutation(UpdateSsoPolicyDocument);
  const policy = data?.ssoPolicy;
  if (!owner || policy === undefined || !policy.ssoConfigured) {
    return null;
  }
  return (
    <Paper withBorder p="lg" maw={480} mt="lg" component="section" aria-labelledby="sso-policy-title">
      <Stack>
        <Title order={2} size="h4" id="sso-policy-title">
          Single sign-on
        </Title>
        <Switch
          label="People who can use single sign-on may also sign in with a password"
          checked={policy.passwordSignIn}
          disabled={fetching}
          onChange={async (event) => {
            const passwordSignIn = event.currentTarget.checked;
            notifyOutcome(
              await update({ passwordSignIn }),
              'Policy not changed',
              passwordSignIn ? 'Passwords are allowed again' : 'Passwords are now for owners only',
            );
          }}
        />
        <Text size="sm" c="dimmed">
          Owners always keep their password: it is the way in when the identity provider is down.
        </Text>
      </Stack>
    </Paper>
  );
}
