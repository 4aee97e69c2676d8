// Whether the signed-in member may change the site on screen (`Site.viewerCanManage`), for every
// page of one site: what a reader may not do is not offered. Outside a site nothing is managed.
import { Anchor, Text } from '@mantine/core';
import { createContext, useContext, type ReactNode } from 'react';
import { Link } from 'react-router';

const SiteAccessContext = createContext<{ siteId: string; canManage: boolean } | null>(null);

export function SiteAccessProvider({
  siteId,
  canManage,
  children,
}: {
  siteId: string;
  canManage: boolean;
  children: ReactNode;
}) {
  return <SiteAccessContext.Provider value={{ siteId, canManage }}>{children}</SiteAccessContext.Provider>;
}

/** True when the member may change the site on screen (forms, settings, webhooks, token, deletions). */
export function useCanManageSite(): boolean {
  return useContext(SiteAccessContext)?.canManage ?? false;
}

/**
 * A page only for those who manage the site (reached by a link kept from before, or typed): a
 * reader is told so instead of getting the API's refusal.
 */
export function ManageOnly({ back, children }: { back: { to: string; label: string }; children: ReactNode }) {
  if (useCanManageSite()) {
    return children;
  }
  return (
    <Text role="alert">
      You may read this site but not change it: this page is for those who manage it.{' '}
      <Anchor component={Link} to={back.to}>
        {back.label}
      </Anchor>
    </Text>
  );
}
