// PLACEHOLDER route component, to be replaced by the real view: the site's API view (its token, Show token / Copy / Rotate token, and each form's code and endpoint).
// The route, its heading and its place in the navigation are final; only the body is to come.
import { Text } from '@mantine/core';
import { PageHeader } from '../../components/page-header';

export function ApiViewPage() {
  return (
    <>
      <PageHeader title="API" />
      <Text c="dimmed">This view is not built yet.</Text>
    </>
  );
}
