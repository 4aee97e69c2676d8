// The team's sign-in policy, for the Members page: an owner requires two-factor sign-in of everyone
// (docs/sign-in.md). Shown to owners only (the API refuses anyone else); an owner without a second
// factor of their own is told to set theirs up first, as the API would.
import { Anchor, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { SignInPolicyDocument, UpdateSignInPolicyDocument } from '../../gql/graphql';
import { paths } from '../../lib/paths';

export function SignInPolicyCard() {
  const [{ data, error }] = useQuery({ query: SignInPolicyDocument });
  const [updated, update] = useMutation(UpdateSignInPolicyDocument);
  if (data?.me.role !== 'owner') {
    return error ? <ErrorAlert error={error} title="Could not load the sign-in policy" /> : null;
  }
  const required = data.teamPolicy.requireSecondFactor;
  // A passkey is a second factor too: an owner with one may require it of everyone.
  const blocked = !required && !data.me.twoFactorEnabled && data.me.passkeyCount === 0;
  return (
    <Paper withBorder p="lg" maw={640} mt="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Sign-in policy
        </Title>
        <Switch
          label="Require two-factor sign-in"
          description="Members without it can do nothing but set it up after they sign in."
          checked={required}
          disabled={blocked || updated.fetching}
          onChange={async (event) => {
            const requireSecondFactor = event.currentTarget.checked;
            const result = await update({ requireSecondFactor });
            if (result.data) {
              notifySuccess(
                requireSecondFactor ? 'Two-factor sign-in is now required.' : 'Two-factor sign-in is now optional.',
              );
            }
          }}
        />
        {blocked ? (
          <Text size="sm">
            Set up{' '}
            <Anchor component={Link} to={paths.twoFactor}>
              your own two-factor sign-in
            </Anchor>{' '}
            first.
          </Text>
        ) : null}
        <ErrorAlert error={updated.error} title="Policy not changed" />
      </Stack>
    </Paper>
  );
}
