// Routes only some members may open, wrapped around the pages in router.tsx: someone who follows an
// old link or types the address is told the page is not theirs, rather than shown the API's refusal.
// The links to these pages are not offered to them in the first place.
import { Anchor, Text } from '@mantine/core';
import { Link, Outlet, useParams } from 'react-router';
import { ManageOnly } from '../../components/site-access';
import { paths } from '../../lib/paths';
import { useCan, type TeamPermission } from '../../lib/me';

/** A site's pages that change it (API view, webhooks, settings): for those who manage the site. */
export function ManageOnlyRoute() {
  const { siteId = '' } = useParams();
  return (
    <ManageOnly back={{ to: paths.siteForms(siteId), label: 'Back to the forms' }}>
      <Outlet />
    </ManageOnly>
  );
}

const teamOnlyRoutes = new Map<TeamPermission, () => React.ReactNode>();

/** A route element shown only to those holding `permission` (one component per permission). */
export function teamOnly(permission: TeamPermission): () => React.ReactNode {
  let route = teamOnlyRoutes.get(permission);
  if (route === undefined) {
    route = function TeamOnlyRoute() {
      if (useCan(permission)) {
        return <Outlet />;
      }
      return (
        <Text role="alert">
          This page is for the team&apos;s owners and admins.{' '}
          <Anchor component={Link} to={paths.sites}>
            Back to sites
          </Anchor>
        </Text>
      );
    };
    teamOnlyRoutes.set(permission, route);
  }
  return route;
}
