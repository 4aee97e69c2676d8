// Sites: every live site with its forms and recent submissions; create, edit, delete.
import { Button, Table } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { RowActions } from '../../components/row-actions';
import { NameCell } from '../../components/name-cell';
import { NewButton } from '../../components/new-button';
import { ColumnHeaders } from '../../components/column-headers';
import { QueryStatus } from '../../components/query-status';
import { useDeleteNamed } from '../../components/use-delete-named';
import { DeleteSiteDocument, SitesDocument } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { SiteEditor, type EditedSite } from './site-editor';

export function SitesPage() {
  // `Site` also for an empty list: the document cache then refetches after a site is created.
  const context = useMemo(() => ({ additionalTypenames: ['Site', 'Form'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: SitesDocument, context });
  const [editing, setEditing] = useState<{ site: EditedSite | null } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const deletion = useDeleteNamed({
    mutation: DeleteSiteDocument,
    additionalTypenames: ['Site', 'Form'],
    noun: 'Site',
    consequences:
      'Its forms stop accepting submissions at once and its site token stops working. Submissions already received are kept.',
    onDone: reload,
  });

  return (
    <>
      <PageHeader title="Sites" actions={<NewButton onClick={() => setEditing({ site: null })}>New site</NewButton>} />
      <QueryStatus data={data} error={error} fetching={fetching} subject="sites" />
      {data ? (
        <DataTable
          empty={
            data.sites.length === 0
              ? 'No sites yet. A site is one backend that sends form submissions; create the first one.'
              : null
          }
          minWidth={760}
          highlightOnHover
          caption="Each site, its forms and the submissions of the last 7 days"
          columns={<ColumnHeaders names={['Name', 'Domain', 'Forms', 'Submissions (7 days)', 'Created', 'Actions']} />}
        >
          {data.sites.map((site) => (
            <Table.Tr key={site.id}>
              <NameCell name={site.name} to={paths.siteForms(site.id)} />
              <Table.Td>{site.domain ?? '—'}</Table.Td>
              <Table.Td>{site.formCount}</Table.Td>
              <Table.Td>{site.submissionsLast7Days}</Table.Td>
              <Table.Td>{formatDateTime(site.createdAt)}</Table.Td>
              <Table.Td>
                <RowActions onDelete={() => deletion.ask(site)}>
                  <Button size="xs" variant="light" component={Link} to={paths.siteApi(site.id)}>
                    API
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setEditing({ site })}>
                    Edit
                  </Button>
                </RowActions>
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
