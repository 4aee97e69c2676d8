import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { SIGN_IN_PATH } from '../../lib/next-path';
import { useSessionControl } from '../../lib/session-control';
import { notifyError, notifySuccess } from '../../components/notify';
import { SignOutDocument } from '../../gql/graphql';
import { forgetSignedIn } from '../../lib/session-marker';

/** Ends the session on the server (the cookie stops working there), then shows the sign-in page. */
export function SignOutButton() {
  const navigate = useNavigate();
  const { resetClient } = useSessionControl();
  const [{ fetching }, signOut] = useMutation(SignOutDocument);
  return (
    <Button
      variant="default"
      size="xs"
      loading={fetching}
      leftSection={<IconLogout size={16} aria-hidden />}
      onClick={async () => {
        const result = await signOut({});
        if (result.error) {
          notifyError(result.error, 'Could not sign out');
          return;
        }
        forgetSignedIn();
        resetClient();
        await navigate(SIGN_IN_PATH, { replace: true });
        notifySuccess('Signed out');
      }}
    >
      Sign out
    </Button>
  );
}
