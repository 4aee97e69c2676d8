// A site's forms: their codes, whether they accept submissions, how many came and when; create and
// delete here, every other setting on the form's settings page.
import { Badge, Button, Code, Group, Table } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { CreateNamedDialog } from '../../components/create-named-dialog';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { useCanManageSite } from '../../components/site-access';
import { RowActions } from '../../components/row-actions';
import { NameCell } from '../../components/name-cell';
import { NewButton } from '../../components/new-button';
import { ListTable } from '../../components/list-table';
import { useDeleteNamed } from '../../components/use-delete-named';
import { CreateFormDocument, DeleteFormDocument, SiteFormsDocument, type SiteFormsQuery } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { FormClosedBadge } from './form-closed-badge';

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

interface FormRowProps {
  form: SiteFormsQuery['forms'][number];
  siteId: string;
  /** Absent for someone who only reads the site: then only its submissions are offered. */
  onDelete?: () => void;
}

function FormRow({ form, siteId, onDelete }: FormRowProps) {
  return (
    <Table.Tr>
      <NameCell name={form.name} to={paths.formSubmissions(siteId, form.id)} />
      <Table.Td>
        <Code>{form.code}</Code>
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Badge color={form.enabled ? 'green' : 'gray'} variant="dot" w="max-content">
            {form.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
          {form.enabled ? <FormClosedBadge reason={form.closedReason ?? null} opensAt={form.opensAt ?? null} /> : null}
        </Group>
      </Table.Td>
      <Table.Td>{form.submissionCount}</Table.Td>
      <Table.Td>{formatDateTime(form.lastSubmissionAt, 'None yet')}</Table.Td>
      <Table.Td>
        <RowActions onDelete={onDelete}>
          <Button size="xs" variant="light" component={Link} to={paths.formSubmissions(siteId, form.id)}>
            Submissions
          </Button>
          {onDelete ? (
            <>
              <Button size="xs" variant="light" component={Link} to={paths.formWebhooks(siteId, form.id)}>
                Webhooks
              </Button>
              <Button size="xs" variant="default" component={Link} to={paths.formSettings(siteId, form.id)}>
                Settings
              </Button>
            </>
          ) : null}
        </RowActions>
      </Table.Td>
    </Table.Tr>
  );
}

export function FormsPage() {
  const { siteId = '' } = useParams();
  const context = useMemo(() => ({ additionalTypenames: ['Form'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: SiteFormsDocument, variables: { siteId }, context });
  const [creating, setCreating] = useState(false);
  const canManage = useCanManageSite();
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
      <PageHeader
        title="Forms"
        help="forms"
        actions={canManage ? <NewButton onClick={() => setCreating(true)}>New form</NewButton> : undefined}
      />
      <ListTable
        items={data?.forms}
        error={error}
        fetching={fetching}
        subject="forms"
        row={(form) => (
          <FormRow
            key={form.id}
            form={form}
            siteId={siteId}
            onDelete={canManage ? () => deletion.ask(form) : undefined}
          />
        )}
        empty="This site has no forms yet. Each form gets a code its backend sends submissions to."
        caption="The forms of this site"
        columns={['Name', 'Code', 'Status', 'Submissions', 'Last submission', 'Actions']}
        minWidth={860}
        highlightOnHover
      />

      <NewFormDialog siteId={siteId} opened={creating} onClose={() => setCreating(false)} onCreated={reload} />
      {deletion.dialog}
    </>
  );
}
