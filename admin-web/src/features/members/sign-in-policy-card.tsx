// The team's sign-in policy, for the Members page: an owner requires two-factor sign-in of everyone
// (docs/sign-in.md). Shown to owners only (the API refuses anyone else); an owner without a second
// factor of their own is told to set theirs up first, as the API would. Turning the rule on is
// confirmed first, naming the active members without a second factor: they will be held at enrolment.
import { Anchor, List, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { SignInPolicyDocument, UpdateSignInPolicyDocument } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { paths } from '../../lib/paths';

const MEMBER_CONTEXT = { additionalTypenames: ['Member'] };

export function SignInPolicyCard() {
  const [{ data, error }] = useQuery({
    query: SignInPolicyDocument,
    context: MEMBER_CONTEXT,
  });
  const [updated, update] = useMutation(UpdateSignInPolicyDocument);
  const [confirming, setConfirming] = useState(false);
  if (data?.me.role !== 'owner') {
    return error ? <ErrorAlert error={error} title="Could not load the sign-in policy" /> : null;
  }
  const required = data.teamPolicy.requireSecondFactor;
  // A passkey is a second factor too: an owner with one may require it of everyone.
  const blocked = !required && !data.me.twoFactorEnabled && data.me.passkeyCount === 0;
  const held = data.members.filter((member) => member.status === 'active' && !member.secondFactor);
  const apply = async (requireSecondFactor: boolean) => {
    const result = await update({ requireSecondFactor });
    setConfirming(false);
    if (result.data) {
      notifySuccess(
        requireSecondFactor ? 'Two-factor sign-in is now required.' : 'Two-factor sign-in is now optional.',
      );
    }
  };
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
          onChange={(event) => {
            if (event.currentTarget.checked) {
              setConfirming(true);
            } else {
              void apply(false);
            }
          }}
        />
        <ConfirmDialog
          opened={confirming}
          title="Require two-factor sign-in of everyone?"
          confirmLabel="Require two-factor sign-in"
          onConfirm={() => void apply(true)}
          onClose={() => setConfirming(false)}
          pending={updated.fetching}
        >
          {held.length === 0 ? (
            <Text>Every active member has a second factor: nobody is held.</Text>
          ) : (
            <Stack gap="xs">
              <Text>
                {held.length === 1 ? 'This member has' : `These ${held.length} members have`} no second factor. After
                their next sign-in they can do nothing but set one up:
              </Text>
              <List aria-label="Members without a second factor">
                {held.map((member) => (
                  <List.Item key={member.id}>
                    {member.name ? `${decodeStoredText(member.name)} (${member.email})` : member.email}
                  </List.Item>
                ))}
              </List>
            </Stack>
          )}
        </ConfirmDialog>
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
