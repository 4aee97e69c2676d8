// A row of links to the views of one site or one form; the current one is marked for screen readers.
import { Button, Group } from '@mantine/core';
import { NavLink as RouterNavLink } from 'react-router';

interface SectionNavProps {
  label: string;
  links: readonly { to: string; label: string; end?: boolean }[];
}

export function SectionNav({ label, links }: SectionNavProps) {
  return (
    <Group component="nav" aria-label={label} gap="xs" mb="md" wrap="wrap">
      {links.map((link) => (
        <RouterNavLink key={link.to} to={link.to} end={link.end ?? false} style={{ textDecoration: 'none' }}>
          {({ isActive }) => (
            <Button component="span" size="xs" variant={isActive ? 'filled' : 'light'}>
              {link.label}
            </Button>
          )}
        </RouterNavLink>
      ))}
    </Group>
  );
}
