// A site's pages (its forms, its API view, one form's pages): breadcrumbs, the site's sub-navigation,
// and whether the member may change the site (what the pages inside offer follows it).
import { Anchor, Breadcrumbs, Loader, Text } from '@mantine/core';
import { Link, Outlet, useParams } from 'react-router';
import { useQuery } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { SiteAccessProvider } from '../../components/site-access';
import { SiteHeaderDocument } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { paths } from '../../lib/paths';
import { SectionNav } from './section-nav';

export function SiteLayout() {
  const { siteId = '' } = useParams();
  const [{ data, error, fetching }] = useQuery({ query: SiteHeaderDocument, variables: { id: siteId } });
  if (error && !data) {
    return <ErrorAlert error={error} title="The site could not be loaded" />;
  }
  if (!data) {
    return fetching ? <Loader aria-label="Loading site" /> : null;
  }
  if (data.site === null || data.site === undefined) {
    return (
      <Text role="alert">
        There is no such site (it may have been deleted).{' '}
        <Anchor component={Link} to={paths.sites}>
          Back to sites
        </Anchor>
      </Text>
    );
  }
  const canManage = data.site.viewerCanManage;
  return (
    <SiteAccessProvider siteId={siteId} canManage={canManage}>
      <Breadcrumbs mb="xs" aria-label="Breadcrumbs" component="nav">
        <Anchor component={Link} to={paths.sites}>
          Sites
        </Anchor>
        <Anchor component={Link} to={paths.siteForms(siteId)}>
          {decodeStoredText(data.site.name)}
        </Anchor>
      </Breadcrumbs>
      <SectionNav
        label="Site"
        links={[
          { to: paths.siteForms(siteId), label: 'Forms', end: true },
          // The API view shows the site token: for those who manage the site.
          ...(canManage ? [{ to: paths.siteApi(siteId), label: 'API' }] : []),
        ]}
      />
      <Outlet />
    </SiteAccessProvider>
  );
}
