// A row of links to the views of one site or one form; the current one is marked for screen readers.
import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router';

export interface SectionLink {
  to: string;
  label: string;
  /** Current only on its own path, not on the paths below it. */
  end?: boolean;
  /** Also current on the paths below this one (a submission's page under its form's Submissions). */
  alsoUnder?: string;
}

function isCurrent(link: SectionLink, pathname: string): boolean {
  return (
    pathname === link.to ||
    (!link.end && pathname.startsWith(`${link.to}/`)) ||
    (link.alsoUnder !== undefined && pathname.startsWith(`${link.alsoUnder}/`))
  );
}

export function SectionNav({ label, links }: { label: string; links: readonly SectionLink[] }) {
  const { pathname } = useLocation();
  return (
    <Group component="nav" aria-label={label} gap="xs" mb="md" wrap="wrap">
      {links.map((link) => {
        const current = isCurrent(link, pathname);
        return (
          <Link
            key={link.to}
            to={link.to}
            aria-current={current ? 'page' : undefined}
            style={{ textDecoration: 'none' }}
          >
            <Button component="span" size="xs" variant={current ? 'filled' : 'light'}>
              {link.label}
            </Button>
          </Link>
        );
      })}
    </Group>
  );
}
