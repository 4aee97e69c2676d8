// Where signing in may lead: a path of the console's own origin, never another site. The one
// decision for the admin API (single sign-on's start route, through the kernel) and the console's
// sign-in page (bundled). Its tests build hostile paths with fast-check (return-path.test.ts).

// The URL parser of Node and of browsers alike; the contract compiles with neither's types.
declare const URL: new (
  url: string,
  base?: string,
) => {
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
};

/** The sign-in page: never a place to return to (it would only ask again). */
export const SIGN_IN_PATH = '/sign-in';
/** Where signing in leads when the asked-for place is not a safe one. */
export const AFTER_SIGN_IN = '/sites';

const MAX_LENGTH = 2000;
// Any origin does: only whether the path leaves it matters. `.invalid` never resolves.
const BASE = 'https://console.invalid';

function parsed(path: string): InstanceType<typeof URL> | null {
  try {
    return new URL(path, BASE);
  } catch {
    return null;
  }
}

/**
 * `next` as the path (with query and fragment) a browser on the console's origin reaches through it,
 * when that stays on the origin; else AFTER_SIGN_IN. The path is read as browsers read it (the
 * WHATWG URL parser: tabs and newlines dropped, `\` as `/`, `%2e` as a dot-segment), and then read
 * again: `/.//evil.example` resolves to the path `//evil.example`, which as a Location header or a
 * link leads to another host. Only a path that reads the same the second time is answered.
 */
export function safeReturnPath(next: unknown): string {
  if (typeof next !== 'string' || next.length > MAX_LENGTH || !next.startsWith('/')) {
    return AFTER_SIGN_IN;
  }
  const url = parsed(next);
  if (url === null || url.origin !== new URL(BASE).origin) {
    return AFTER_SIGN_IN;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  const again = parsed(path);
  const { pathname } = url;
  if (
    again === null ||
    again.href !== url.href ||
    pathname === SIGN_IN_PATH ||
    pathname.startsWith(`${SIGN_IN_PATH}/`) ||
    pathname.startsWith('/auth/')
  ) {
    return AFTER_SIGN_IN;
  }
  return path;
}
