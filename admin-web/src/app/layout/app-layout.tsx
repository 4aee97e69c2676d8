// The shell around every signed-in page: a header (product, who is signed in, Sign out), the main
// navigation (a drawer behind the burger on small screens) and the page.
import { AppShell, Burger, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconChartBar,
  IconEraser,
  IconHistory,
  IconKey,
  IconLock,
  IconShieldLock,
  IconWorldWww,
} from '@tabler/icons-react';
import { useEffect } from 'react';
import { NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { SignOutButton } from '../../features/auth/sign-out-button';
import { paths } from '../../lib/paths';
import { useMe } from '../require-session';
import classes from './app-layout.module.css';

const NAV_ITEMS = [
  { to: paths.overview, label: 'Overview', icon: IconChartBar },
  { to: paths.sites, label: 'Sites', icon: IconWorldWww },
  { to: paths.apiTokens, label: 'API tokens', icon: IconKey },
  { to: paths.erasure, label: 'Erasure requests', icon: IconEraser },
  { to: paths.auditLog, label: 'Audit log', icon: IconHistory },
  { to: paths.changePassword, label: 'Change password', icon: IconLock },
  { to: paths.twoFactor, label: 'Two-factor sign-in', icon: IconShieldLock },
] as const;

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
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="signed-in-email">
              {me.email}
            </Text>
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
        {NAV_ITEMS.map((item) => (
          <NavLink
            key={item.to}
            component={RouterNavLink}
            to={item.to}
            label={item.label}
            variant="filled"
            leftSection={<item.icon size={18} aria-hidden />}
            active={location.pathname === item.to || location.pathname.startsWith(`${item.to}/`)}
          />
        ))}
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
