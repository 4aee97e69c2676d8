// PLACEHOLDER route component, to be replaced by the real view: the form's webhooks (list, create, edit, test, deliveries, rotate secret, Delete).
// The route, its heading and its place in the navigation are final; only the body is to come.
import { Text } from '@mantine/core';
import { PageHeader } from '../../components/page-header';

export function WebhooksPage() {
  return (
    <>
      <PageHeader title="Webhooks" />
      <Text c="dimmed">This view is not built yet.</Text>
    </>
  );
}
