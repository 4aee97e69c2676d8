// One form's pages (submissions, webhooks, spam, settings): the form's name, a notice when its
// notifications keep failing, and its sub-navigation.
import { Anchor, Loader, Text } from '@mantine/core';
import { Link, Outlet, useParams } from 'react-router';
import { useQuery } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { useCanManageSite } from '../../components/site-access';
import { FormHeaderDocument } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { paths } from '../../lib/paths';
import { useLiveRefresh } from '../../lib/live-updates';
import { usePolling } from '../../lib/use-polling';
import { DeliveryAlertsNotice } from '../../features/webhooks/delivery-alerts-notice';
import { SectionNav } from './section-nav';

// The Spam tab's count follows new spam as the Spam view's list does (it polls every 5 s), and the
// failing-notifications notice the delivery worker's attempts.
const POLL_INTERVAL_MS = 5000;

export function FormLayout() {
  const { siteId = '', formId = '' } = useParams();
  const [{ data, error, fetching }, refetch] = useQuery({ query: FormHeaderDocument, variables: { id: formId } });
  // Webhooks and settings are for those who manage the site.
  const canManage = useCanManageSite();
  usePolling(() => refetch({ requestPolicy: 'network-only' }), POLL_INTERVAL_MS);
  // New spam counts at once (live-updates.tsx); the poll stays for the delivery notice.
  useLiveRefresh(() => refetch({ requestPolicy: 'network-only' }), { formId }, null);
  if (error && !data) {
    return <ErrorAlert error={error} title="The form could not be loaded" />;
  }
  if (!data) {
    return fetching ? <Loader aria-label="Loading form" /> : null;
  }
  if (!data.form || data.form.siteId !== siteId) {
    return (
      <Text role="alert">
        There is no such form on this site (it may have been deleted).{' '}
        <Anchor component={Link} to={paths.siteForms(siteId)}>
          Back to the forms
        </Anchor>
      </Text>
    );
  }
  return (
    <>
      <Text size="sm" c="dimmed" mb={4}>
        Form: <strong>{decodeStoredText(data.form.name)}</strong>
      </Text>
      <DeliveryAlertsNotice
        alerts={data.form.deliveryAlerts}
        webhooksPath={canManage ? paths.formWebhooks(siteId, formId) : null}
      />
      <SectionNav
        label="Form"
        links={[
          {
            to: paths.formSubmissions(siteId, formId),
            label: 'Submissions',
            end: true,
            alsoUnder: `${paths.formSubmissions(siteId, formId)}/submissions`,
          },
          ...(canManage ? [{ to: paths.formWebhooks(siteId, formId), label: 'Webhooks' }] : []),
          { to: paths.formSpam(siteId, formId), label: `Spam (${data.form.spamCount})` },
          ...(canManage ? [{ to: paths.formSettings(siteId, formId), label: 'Settings' }] : []),
        ]}
      />
      <Outlet />
    </>
  );
}
