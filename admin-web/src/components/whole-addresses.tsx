// Text with each e-mail address kept on one line, for the cells of a table that scrolls (a scroll
// table grows wider instead): a line may break around an address, never inside it, neither at its
// hyphens nor, in a squeezed column, between two letters ("admin@lo calhost").
import type { ReactNode } from 'react';

const ADDRESS = /[^\s@,;:<>()"']+@[^\s@,;:<>()"']+\.[^\s@,;:<>()"']+/g;

export function WholeAddresses({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(ADDRESS)) {
    parts.push(text.slice(last, match.index));
    parts.push(
      <span key={match.index} style={{ whiteSpace: 'nowrap' }}>
        {match[0]}
      </span>,
    );
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
