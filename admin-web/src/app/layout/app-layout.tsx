// The shell around every signed-in page: a header (product, who is signed in with a link to their
// account, Sign out), the main navigation (a drawer behind the burger on small screens) and the page.
// A page the member may not use is not in the navigation (its route says so if opened anyway).
import { Anchor, AppShell, Burger, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconChartBar,
  IconEraser,
  IconHistory,
  IconKey,
  IconShieldLock,
  IconUserCircle,
  IconUsers,
  IconWorldWww,
} from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { SignOutButton } from '../../features/auth/sign-out-button';
import { docsUrl } from '../../lib/docs';
import { paths } from '../../lib/paths';
import { useMe, type TeamPermission } from '../../lib/me';
import classes from './app-layout.module.css';

// Each page's link, shown to those who hold `permission` (every member holds `account`).
const NAV_ITEMS: readonly { to: string; label: string; icon: typeof IconKey; permission: TeamPermission }[] = [
  { to: paths.overview, label: 'Overview', icon: IconChartBar, permission: 'statistics:read' },
  { to: paths.sites, label: 'Sites', icon: IconWorldWww, permission: 'account' },
  { to: paths.apiTokens, label: 'API tokens', icon: IconKey, permission: 'account' },
  { to: paths.members, label: 'Members', icon: IconUsers, permission: 'members:manage' },
  { to: paths.erasure, label: 'Erasure requests', icon: IconEraser, permission: 'erasure' },
  { to: paths.auditLog, label: 'Audit log', icon: IconHistory, permission: 'audit:read' },
  { to: paths.account, label: 'Your account', icon: IconUserCircle, permission: 'account' },
  { to: paths.twoFactor, label: 'Two-factor sign-in', icon: IconShieldLock, permission: 'account' },
];

/** The item of the open page: the longest path the location is or is under (`/account/two-factor` is not `/account`). */
function currentItem(pathname: string): string | undefined {
  const under = NAV_ITEMS.filter((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));
  return under.sort((a, b) => b.to.length - a.to.length)[0]?.to;
}

export function AppLayout() {
  const me = useMe();
  const [opened, { toggle, close }] = useDisclosure(false);
  const mobile = useMediaQuery('(max-width: 48em)') ?? false;
  const location = useLocation();
  // A chosen page closes the drawer on small screens.
  useEffect(() => {
    close();
  }, [location.pathname, close]);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <a
          href="#main-content"
          className={classes.skipLink}
          onClick={(event) => {
            // Focus the page without putting a fragment in the address (the router owns it).
            event.preventDefault();
            document.getElementById('main-content')?.focus();
          }}
        >
          Skip to content
        </a>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
              aria-controls="main-navigation"
            />
            <Title order={2} size="h4" component="p">
              Intake console
            </Title>
          </Group>
          <Group gap="md" wrap="nowrap">
            <Anchor
              href={docsUrl('index')}
              target="_blank"
              rel="noopener"
              size="sm"
              aria-label="Docs: Intake documentation (opens in a new tab)"
            >
              Docs
            </Anchor>
            <Anchor
              component={Link}
              to={paths.account}
              size="sm"
              c="dimmed"
              visibleFrom="sm"
              data-testid="signed-in-email"
              aria-label={`${me.email} (your account)`}
            >
              {me.email}
            </Anchor>
            <SignOutButton />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        p="sm"
        component="nav"
        id="main-navigation"
        aria-label="Main"
        // Off screen on a small screen while closed: out of the tab order too.
        inert={mobile && !opened ? true : undefined}
      >
        {NAV_ITEMS.filter((item) => me.permissions.includes(item.permission)).map((item) => {
          // One current item, the deepest that holds the page (Two-factor sign-in, not Your account).
          const current = item.to === currentItem(location.pathname);
          return (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              variant="filled"
              leftSection={<item.icon size={18} aria-hidden />}
              active={current}
              aria-current={current ? 'page' : undefined}
            />
          );
        })}
        <Text size="xs" c="dimmed" mt="auto" hiddenFrom="sm">
          Signed in as {me.email}
        </Text>
      </AppShell.Navbar>

      <AppShell.Main id="main-content" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
