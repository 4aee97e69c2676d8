// A site's forms: their codes, whether they accept submissions, how many came and when; create and
// delete here, every other setting on the form's settings page.
import { Badge, Button, Code, Table } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { CreateNamedDialog } from '../../components/create-named-dialog';
import { DataTable } from '../../components/data-table';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { RowActions } from '../../components/row-actions';
import { NameCell } from '../../components/name-cell';
import { NewButton } from '../../components/new-button';
import { ColumnHeaders } from '../../components/column-headers';
import { QueryStatus } from '../../components/query-status';
import { useDeleteNamed } from '../../components/use-delete-named';
import { CreateFormDocument, DeleteFormDocument, SiteFormsDocument } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';

function NewFormDialog({
  siteId,
  opened,
  onClose,
  onCreated,
}: {
  siteId: string;
  opened: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const [{ fetching, error }, createForm] = useMutation(CreateFormDocument);
  const create = async (name: string) => {
    const result = await createForm({ input: { siteId, name } }, { additionalTypenames: ['Form', 'Site'] });
    if (result.error) {
      return { created: false, error: result.error };
    }
    notifySuccess(`Form ${name} created`);
    onCreated();
    return { created: true };
  };
  return (
    <CreateNamedDialog
      opened={opened}
      onClose={onClose}
      title="New form"
      submitLabel="Create form"
      fetching={fetching}
      error={error}
      create={create}
    />
  );
}

export function FormsPage() {
  const { siteId = '' } = useParams();
  const context = useMemo(() => ({ additionalTypenames: ['Form'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: SiteFormsDocument, variables: { siteId }, context });
  const [creating, setCreating] = useState(false);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const deletion = useDeleteNamed({
    mutation: DeleteFormDocument,
    additionalTypenames: ['Form', 'Site'],
    noun: 'Form',
    consequences:
      'It stops accepting submissions at once and its webhooks stop. Submissions already received are kept.',
    onDone: reload,
  });

  return (
    <>
      <PageHeader title="Forms" actions={<NewButton onClick={() => setCreating(true)}>New form</NewButton>} />
      <QueryStatus data={data} error={error} fetching={fetching} subject="forms" />
      {data ? (
        <DataTable
          empty={
            data.forms.length === 0
              ? 'This site has no forms yet. Each form gets a code its backend sends submissions to.'
              : null
          }
          minWidth={860}
          highlightOnHover
          caption="The forms of this site"
          columns={<ColumnHeaders names={['Name', 'Code', 'Status', 'Submissions', 'Last submission', 'Actions']} />}
        >
          {data.forms.map((form) => (
            <Table.Tr key={form.id}>
              <NameCell name={form.name} to={paths.formSubmissions(siteId, form.id)} />
              <Table.Td>
                <Code>{form.code}</Code>
              </Table.Td>
              <Table.Td>
                <Badge color={form.enabled ? 'green' : 'gray'} variant="dot" w="max-content">
                  {form.enabled ? 'Enabled' : 'Disabled'}
                </Badge>
              </Table.Td>
              <Table.Td>{form.submissionCount}</Table.Td>
              <Table.Td>{formatDateTime(form.lastSubmissionAt, 'None yet')}</Table.Td>
              <Table.Td>
                <RowActions onDelete={() => deletion.ask(form)}>
                  <Button size="xs" variant="light" component={Link} to={paths.formSubmissions(siteId, form.id)}>
                    Submissions
                  </Button>
                  <Button size="xs" variant="light" component={Link} to={paths.formWebhooks(siteId, form.id)}>
                    Webhooks
                  </Button>
                  <Button size="xs" variant="default" component={Link} to={paths.formSettings(siteId, form.id)}>
                    Settings
                  </Button>
                </RowActions>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      ) : null}

      <NewFormDialog siteId={siteId} opened={creating} onClose={() => setCreating(false)} onCreated={reload} />
      {deletion.dialog}
    </>
  );
}
