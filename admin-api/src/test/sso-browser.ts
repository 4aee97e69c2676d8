// Single sign-on as a browser drives it, over real HTTP: a cookie jar per origin, redirects followed
// by hand (to see each hop), Intake's start route, the provider's (auto-approving) steps, and back
// at Intake's callback. For the single sign-on tests of the admin API.
import type { TestAccount, TestOidcProvider } from './oidc-test-provider.js';

export const FLOW_COOKIE = 'intake_oidc_flow';
export const SESSION_COOKIE = 'intake_session';

/** Cookies per origin, as a browser keeps them (paths and expiry are not needed here). */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  /** `headers`: sent with every request to that origin (an `X-Forwarded-For` behind a trusted proxy). */
  constructor(private readonly headers: Record<string, Record<string, string>> = {}) {}

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    jar.set(name, value);
    this.jars.set(origin, jar);
  }

  async get(url: string): Promise<Response> {
    return this.send(url, {});
  }

  /** A request with this origin's cookies; the cookies it sets are kept. */
  async send(url: string, init: RequestInit): Promise<Response> {
    const { origin } = new URL(url);
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = new Headers({ ...this.headers[origin], ...Object.fromEntries(new Headers(init.headers)) });
    if (cookie !== '') {
      headers.set('cookie', cookie);
    }
    const response = await fetch(url, { ...init, redirect: 'manual', headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair!.slice(0, pair!.indexOf('=')).trim();
      const value = pair!.slice(pair!.indexOf('=') + 1).trim();
      const expired = attributes.some(
        (attribute) => /^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1]!) < Date.now(),
      );
      if (value === '' || expired) {
        jar.delete(name);
      } else {
        jar.set(name, value);
      }
    }
    this.jars.set(origin, jar);
    return response;
  }

  /** A GraphQL request to Intake as the console makes it (its cookies, no token). */
  async graphql<T>(intakeUrl: string, query: string, variables: Record<string, unknown> = {}) {
    const response = await this.send(`${intakeUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: T | null; errors?: { extensions?: Record<string, unknown> }[] };
  }
}

export function locationOf(response: Response, base: string): string {
  const location = response.headers.get('location');
  if (location === null) {
    throw new Error(`expected a redirect, got ${response.status}`);
  }
  return new URL(location, base).href;
}

export interface SsoAttempt {
  browser: Browser;
  callbackUrl: string;
  /** The flow cookie as it was when the provider sent the browser back. */
  flowCookie: string;
  /** Intake's answer at the callback. */
  answer: Response;
}

export interface SsoAttemptOptions {
  /** Changes the provider's authorization URL before the browser follows it. */
  tamper?: (authorizationUrl: URL) => void;
  /** The start route's `next`, as sent (default `/api-tokens`). */
  next?: string;
  /** The browser to use (default: a new one). */
  browser?: Browser;
  /** Runs with the callback URL (its code unused yet) before the browser follows it. */
  beforeCallback?: (callbackUrl: string) => Promise<void>;
}

/** Start → provider (as `account`) → back at the callback; `answer` is the callback's. */
export async function ssoAttempt(
  provider: TestOidcProvider,
  intakeUrl: string,
  account: [string, TestAccount],
  { tamper = () => undefined, next = '/api-tokens', browser = new Browser(), beforeCallback }: SsoAttemptOptions = {},
): Promise<SsoAttempt> {
  provider.signInAs(...account);
  const started = await browser.get(`${intakeUrl}/auth/oidc/start?next=${encodeURIComponent(next)}`);
  const authorization = new URL(locationOf(started, intakeUrl));
  if (authorization.origin !== provider.issuer || authorization.searchParams.get('code_challenge_method') !== 'S256') {
    throw new Error(`the start route did not lead to the provider with PKCE: ${authorization.href}`);
  }
  tamper(authorization);
  let url = authorization.href;
  for (let hop = 0; hop < 10 && !url.startsWith(`${intakeUrl}/`); hop += 1) {
    url = locationOf(await browser.get(url), url);
  }
  if (!url.startsWith(`${intakeUrl}/auth/oidc/callback?`)) {
    throw new Error(`the provider did not send the browser back to the callback: ${url}`);
  }
  const flowCookie = browser.cookie(intakeUrl, FLOW_COOKIE);
  if (flowCookie === undefined) {
    throw new Error('no flow cookie');
  }
  await beforeCallback?.(url);
  const answer = await browser.get(url);
  return { browser, callbackUrl: url, flowCookie, answer };
}

/** The refusal code of a callback's answer (a redirect to `/sign-in?error=…`); throws for anything else. */
export function refusalOf(answer: Response, intakeUrl: string): string | null {
  const location = new URL(locationOf(answer, intakeUrl));
  if (answer.status !== 303 || location.pathname !== '/sign-in') {
    throw new Error(`expected a 303 to /sign-in, got ${answer.status} to ${location.href}`);
  }
  return location.searchParams.get('error');
}

/** Where the "signed in" page of the callback moves on to (its meta refresh). */
export async function continuedTo(answer: Response): Promise<string> {
  if (answer.status !== 200) {
    throw new Error(`expected the signed-in page, got ${answer.status}`);
  }
  const match = /<meta http-equiv="refresh" content="0;url=([^"]*)">/.exec(await answer.text());
  if (match === null) {
    throw new Error('no meta refresh on the signed-in page');
  }
  return match[1]!
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
}

/** Who the browser's session cookie signs in as, or null. */
export async function signedInAs(intakeUrl: string, browser: Browser) {
  if (browser.cookie(intakeUrl, SESSION_COOKIE) === undefined) {
    return null;
  }
  const body = await browser.graphql<{ me: { email: string; role: string } }>(intakeUrl, '{ me { email role } }');
  return body.data?.me ?? null;
}
