// Sites: every live site with its forms and recent submissions; create, edit, delete.
import { Button, Table } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { useCan } from '../../lib/me';
import { PageHeader } from '../../components/page-header';
import { RowActions } from '../../components/row-actions';
import { NameCell } from '../../components/name-cell';
import { NewButton } from '../../components/new-button';
import { ListTable } from '../../components/list-table';
import { useDeleteNamed } from '../../components/use-delete-named';
import { DeleteSiteDocument, SitesDocument, type SitesQuery } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { SiteEditor, type EditedSite } from './site-editor';

// What the list shows, for the document cache: `Site` also for an empty list (it then refetches after a
// site is created), `Form` for the form counts. Deleting a site changes both.
const LISTED_TYPENAMES = ['Site', 'Form'];

interface SiteRowProps {
  site: SitesQuery['sites'][number];
  onEdit: () => void;
  /** Absent for someone who may not delete sites. */
  onDelete?: () => void;
}

function SiteRow({ site, onEdit, onDelete }: SiteRowProps) {
  return (
    <Table.Tr>
      <NameCell name={site.name} to={paths.siteForms(site.id)} />
      <Table.Td>{site.domain ?? '—'}</Table.Td>
      <Table.Td>{site.formCount}</Table.Td>
      <Table.Td>{site.submissionsLast7Days}</Table.Td>
      <Table.Td>{formatDateTime(site.createdAt)}</Table.Td>
      <Table.Td>
        <RowActions onDelete={onDelete}>
          {/* The API view (the site token) and renaming are for those who manage the site. */}
          {site.viewerCanManage ? (
            <>
              <Button size="xs" variant="light" component={Link} to={paths.siteApi(site.id)}>
                API
              </Button>
              <Button size="xs" variant="default" onClick={onEdit}>
                Edit
              </Button>
            </>
          ) : (
            <Button size="xs" variant="light" component={Link} to={paths.siteForms(site.id)}>
              Forms
            </Button>
          )}
        </RowActions>
      </Table.Td>
    </Table.Tr>
  );
}

export function SitesPage() {
  const context = useMemo(() => ({ additionalTypenames: LISTED_TYPENAMES }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: SitesDocument, context });
  const [editing, setEditing] = useState<{ site: EditedSite | null } | null>(null);
  const canCreate = useCan('sites:create');
  const canDelete = useCan('sites:delete');
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const deletion = useDeleteNamed({
    mutation: DeleteSiteDocument,
    additionalTypenames: LISTED_TYPENAMES,
    noun: 'Site',
    consequences:
      'Its forms stop accepting submissions at once and its site token stops working. Submissions already received are kept.',
    onDone: reload,
  });

  return (
    <>
      <PageHeader
        title="Sites"
        help="sites"
        actions={canCreate ? <NewButton onClick={() => setEditing({ site: null })}>New site</NewButton> : undefined}
      />
      <ListTable
        items={data?.sites}
        error={error}
        fetching={fetching}
        subject="sites"
        row={(site) => (
          <SiteRow
            key={site.id}
            site={site}
            onEdit={() => setEditing({ site })}
            onDelete={canDelete ? () => deletion.ask(site) : undefined}
          />
        )}
        empty={
          canCreate
            ? 'No sites yet. A site is one backend that sends form submissions; create the first one.'
            : 'No sites are shared with you yet: an owner or admin of the team grants them.'
        }
        caption="Each site, its forms and the submissions of the last 7 days"
        columns={['Name', 'Domain', 'Forms', 'Submissions (7 days)', 'Created', 'Actions']}
        minWidth={760}
        highlightOnHover
      />

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
