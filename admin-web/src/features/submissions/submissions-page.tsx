// PLACEHOLDER route component, to be replaced by the real view: the form's submissions inbox (paged list, one submission's data and files, Download links, Delete).
// The route, its heading and its place in the navigation are final; only the body is to come.
import { Text } from '@mantine/core';
import { PageHeader } from '../../components/page-header';

export function SubmissionsPage() {
  return (
    <>
      <PageHeader title="Submissions" />
      <Text c="dimmed">This view is not built yet.</Text>
    </>
  );
}
