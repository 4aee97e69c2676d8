// A site's forms: their codes, whether they accept submissions, how many came and when; create and
// delete here, every other setting on the form's settings page.
import { Anchor, Badge, Button, Code, Group, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { CreateNamedDialog } from '../../components/create-named-dialog';
import { DataTable } from '../../components/data-table';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { QueryStatus } from '../../components/query-status';
import { useDeleteNamed } from '../../components/use-delete-named';
import { graphql } from '../../gql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';

const SiteFormsQuery = graphql(`
  query SiteForms($siteId: ID!) {
    forms(siteId: $siteId) {
      id
      name
      code
      enabled
      submissionCount
      lastSubmissionAt
    }
  }
`);

const CreateFormMutation = graphql(`
  mutation CreateForm($input: CreateFormInput!) {
    createForm(input: $input) {
      id
      name
      code
    }
  }
`);

const DeleteFormMutation = graphql(`
  mutation DeleteForm($id: ID!) {
    deleteForm(id: $id)
  }
`);

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
  const [{ fetching, error }, createForm] = useMutation(CreateFormMutation);
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
  const [{ data, error, fetching }, refetch] = useQuery({ query: SiteFormsQuery, variables: { siteId }, context });
  const [creating, setCreating] = useState(false);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const deletion = useDeleteNamed({
    mutation: DeleteFormMutation,
    additionalTypenames: ['Form', 'Site'],
    noun: 'Form',
    consequences:
      'It stops accepting submissions at once and its webhooks stop. Submissions already received are kept.',
    onDone: reload,
  });

  return (
    <>
      <PageHeader
        title="Forms"
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New form
          </Button>
        }
      />
      <QueryStatus data={data} error={error} fetching={fetching} subject="forms" />
      {data ? (
        <DataTable
          empty={
            data.forms.length === 0 ? (
              <Text c="dimmed">
                This site has no forms yet. Each form gets a code its backend sends submissions to.
              </Text>
            ) : null
          }
          minWidth={860}
          highlightOnHover
          caption="The forms of this site"
          columns={
            <>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Code</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Submissions</Table.Th>
              <Table.Th scope="col">Last submission</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </>
          }
        >
          {data.forms.map((form) => (
            <Table.Tr key={form.id}>
              <Table.Th scope="row" fw="normal">
                <Anchor component={Link} to={paths.formSubmissions(siteId, form.id)}>
                  {decodeStoredText(form.name)}
                </Anchor>
              </Table.Th>
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
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" component={Link} to={paths.formSubmissions(siteId, form.id)}>
                    Submissions
                  </Button>
                  <Button size="xs" variant="light" component={Link} to={paths.formWebhooks(siteId, form.id)}>
                    Webhooks
                  </Button>
                  <Button size="xs" variant="default" component={Link} to={paths.formSettings(siteId, form.id)}>
                    Settings
                  </Button>
                  <Button size="xs" variant="light" color="red" onClick={() => deletion.ask(form)}>
                    Delete
                  </Button>
                </Group>
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
