// A site's forms: their codes, whether they accept submissions, how many came and when; create and
// delete here, every other setting on the form's settings page.
import { Anchor, Badge, Button, Code, Group, Loader, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { notifyError, notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { graphql } from '../../gql';
import { fieldErrors } from '../../lib/api-errors';
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

interface NamedForm {
  id: string;
  name: string;
}

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
  const form = useForm({ mode: 'uncontrolled', initialValues: { name: '' } });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    const name = values.name.trim();
    if (name === '') {
      form.setFieldError('name', 'Enter a name');
      return;
    }
    const result = await createForm({ input: { siteId, name } }, { additionalTypenames: ['Form', 'Site'] });
    if (result.error) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    notifySuccess(`Form ${name} created`);
    onCreated();
    close();
  });
  return (
    <Modal opened={opened} onClose={close} title="New form" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Name" required data-autofocus key={form.key('name')} {...form.getInputProps('name')} />
          <ErrorAlert error={error} fieldsShownElsewhere={['name']} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Create form
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function FormsPage() {
  const { siteId = '' } = useParams();
  const context = useMemo(() => ({ additionalTypenames: ['Form'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: SiteFormsQuery, variables: { siteId }, context });
  const [deletion, deleteForm] = useMutation(DeleteFormMutation);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<NamedForm | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const confirmDelete = async () => {
    if (!deleting) {
      return;
    }
    const name = decodeStoredText(deleting.name);
    const result = await deleteForm({ id: deleting.id }, { additionalTypenames: ['Form', 'Site'] });
    if (result.error) {
      notifyError(result.error, `Form ${name} was not deleted`);
    } else {
      notifySuccess(`Form ${name} deleted`);
    }
    setDeleting(null);
    reload();
  };

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
      <ErrorAlert error={data ? undefined : error} title="The forms could not be loaded" />
      {!data && fetching ? <Loader aria-label="Loading forms" /> : null}
      {data && data.forms.length === 0 ? (
        <Text c="dimmed">This site has no forms yet. Each form gets a code its backend sends submissions to.</Text>
      ) : null}
      {data && data.forms.length > 0 ? (
        <Table.ScrollContainer minWidth={860}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Caption>The forms of this site</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Code</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Submissions</Table.Th>
                <Table.Th scope="col">Last submission</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
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
                      <Button size="xs" variant="light" color="red" onClick={() => setDeleting(form)}>
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}

      <NewFormDialog siteId={siteId} opened={creating} onClose={() => setCreating(false)} onCreated={reload} />
      <ConfirmDialog
        opened={deleting !== null}
        title={`Delete form ${decodeStoredText(deleting?.name)}?`}
        confirmLabel="Delete form"
        pending={deletion.fetching}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        It stops accepting submissions at once and its webhooks stop. Submissions already received are kept.
      </ConfirmDialog>
    </>
  );
}
