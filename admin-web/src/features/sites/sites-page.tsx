// Sites: every live site with its forms and recent submissions; create, edit, delete.
import { Anchor, Button, Group, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { QueryStatus } from '../../components/query-status';
import { useDeleteNamed } from '../../components/use-delete-named';
import { graphql } from '../../gql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { SiteEditor, type EditedSite } from './site-editor';

const SitesQuery = graphql(`
  query Sites {
    sites {
      id
      name
      domain
      formCount
      submissionsLast7Days
      createdAt
    }
  }
`);

const DeleteSiteMutation = graphql(`
  mutation DeleteSite($id: ID!) {
    deleteSite(id: $id)
  }
`);

export function SitesPage() {
  // `Site` also for an empty list: the document cache then refetches after a site is created.
  const context = useMemo(() => ({ additionalTypenames: ['Site', 'Form'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: SitesQuery, context });
  const [editing, setEditing] = useState<{ site: EditedSite | null } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const deletion = useDeleteNamed({
    mutation: DeleteSiteMutation,
    additionalTypenames: ['Site', 'Form'],
    noun: 'Site',
    consequences:
      'Its forms stop accepting submissions at once and its site token stops working. Submissions already received are kept.',
    onDone: reload,
  });

  return (
    <>
      <PageHeader
        title="Sites"
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing({ site: null })}>
            New site
          </Button>
        }
      />
      <QueryStatus data={data} error={error} fetching={fetching} subject="sites" />
      {data ? (
        <DataTable
          empty={
            data.sites.length === 0 ? (
              <Text c="dimmed">
                No sites yet. A site is one backend that sends form submissions; create the first one.
              </Text>
            ) : null
          }
          minWidth={760}
          highlightOnHover
          caption="Each site, its forms and the submissions of the last 7 days"
          columns={
            <>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Domain</Table.Th>
              <Table.Th scope="col">Forms</Table.Th>
              <Table.Th scope="col">Submissions (7 days)</Table.Th>
              <Table.Th scope="col">Created</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </>
          }
        >
          {data.sites.map((site) => (
            <Table.Tr key={site.id}>
              <Table.Th scope="row" fw="normal">
                <Anchor component={Link} to={paths.siteForms(site.id)}>
                  {decodeStoredText(site.name)}
                </Anchor>
              </Table.Th>
              <Table.Td>{site.domain ?? '—'}</Table.Td>
              <Table.Td>{site.formCount}</Table.Td>
              <Table.Td>{site.submissionsLast7Days}</Table.Td>
              <Table.Td>{formatDateTime(site.createdAt)}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" component={Link} to={paths.siteApi(site.id)}>
                    API
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setEditing({ site })}>
                    Edit
                  </Button>
                  <Button size="xs" variant="light" color="red" onClick={() => deletion.ask(site)}>
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      ) : null}

      <SiteEditor
        opened={editing !== null}
        site={editing?.site ?? null}
        onClose={() => setEditing(null)}
        onSaved={reload}
      />
      {deletion.dialog}
    </>
  );
}
