// Passkeys against the real admin API, made and used by a real Chromium (issue #24): its DevTools
// protocol's virtual authenticators hold the credentials, and @simplewebauthn/browser (its bundle,
// evaluated in the page) runs the ceremonies as the console does. The page is the console's own
// origin, reached as `localhost` (WebAuthn refuses IP addresses), and the GraphQL calls go to the
// same origin, so the relying party is the request's own origin. Runs on both databases.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  createTestServices,
  describeWithRealPart,
  graphqlRequest,
  type GraphQLResult,
} from '@intake/shared/test';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';

jest.setTimeout(120_000);

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };

const require = createRequire(import.meta.url);
// The package exports no path to its browser bundle: it sits beside `script/`, its CommonJS entry.
const BROWSER_BUNDLE = path.join(
  path.dirname(require.resolve('@simplewebauthn/browser')),
  '../dist/bundle/index.umd.min.js',
);

type Json = Record<string, unknown>;

describeWithRealPart(
  'passkeys through the admin API, with Chromium as the browser',
  existsSync(CHROMIUM_PATH)
    ? { available: true, value: undefined }
    : { available: false, reason: `no Chromium at ${CHROMIUM_PATH}`, placeholder: undefined },
  () => {
    let services: Awaited<ReturnType<typeof createTestServices>>;
    let admin: Awaited<ReturnType<typeof startAdmin>>;
    let browser: Browser;
    let page: Page;
    let cdp: CDPSession;
    /** The admin as the browser reaches it: a host name, not 127.0.0.1. */
    let origin: string;
    let ownerToken: string;
    const authenticators: string[] = [];
    /** Every WebAuthn challenge the API handed out, and every log line it wrote. */
    const challenges = new Set<string>();
    const logLines: string[] = [];

    function gql<T = any>(query: string, variables: Json = {}, token?: string): Promise<GraphQLResult<T>> {
      return graphqlRequest<T>(origin, query, variables, token);
    }

    /** A request with the console's session cookie (`intake_session=…`, or none), and the cookie it sets. */
    async function withCookie(cookie: string | undefined, query: string, variables: Json = {}) {
      const response = await fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) },
        body: JSON.stringify({ query, variables }),
      });
      const line = response.headers.getSetCookie().find((value) => value.startsWith('intake_session='));
      const body = (await response.json()) as { data?: Json | null; errors?: GraphQLResult<unknown>['errors'] };
      return { status: response.status, body, cookie: line?.split(';')[0] };
    }

    /** Registers a passkey of the authenticator in use with a session cookie, as the console does. */
    async function registerWithCookie(cookie: string, name: string) {
      const started = await withCookie(cookie, 'mutation { startPasskeyRegistration }');
      expect(started.body.errors).toBeUndefined();
      const options = started.body.data!.startPasskeyRegistration as Json;
      challenges.add(options.challenge as string);
      const response = await page.evaluate(
        (optionsJSON) => (globalThis as any).SimpleWebAuthnBrowser.startRegistration({ optionsJSON }),
        options,
      );
      return withCookie(
        cookie,
        'mutation($name: String!, $response: JSONObject!) { finishPasskeyRegistration(name: $name, response: $response) { id } }',
        { name, response },
      );
    }

    /** A request that a trusted proxy forwards for `address` (TRUST_PROXY is on, one hop). */
    async function gqlFrom<T = any>(address: string, query: string, variables: Json = {}): Promise<GraphQLResult<T>> {
      const response = await fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: T | null; errors?: GraphQLResult<T>['errors'] };
      return { status: response.status, headers: response.headers, data: body.data, errors: body.errors };
    }

    async function login(email: string, password: string): Promise<GraphQLResult<{ login: { token: string } }>> {
      return gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
        e: email,
        p: password,
      });
    }

    /**
     * A virtual authenticator with resident keys and user verification: the laptop's own (`internal`,
     * Chromium allows one) or a security key (`usb`). Presence is simulated only while it is in `use`.
     */
    async function addAuthenticator(transport: 'internal' | 'usb'): Promise<string> {
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport,
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: false,
        },
      });
      authenticators.push(authenticatorId);
      return authenticatorId;
    }

    /** Only this authenticator answers the next ceremony (the others wait for a touch that never comes). */
    async function use(authenticatorId: string): Promise<void> {
      for (const id of authenticators) {
        await cdp.send('WebAuthn.setAutomaticPresenceSimulation', {
          authenticatorId: id,
          enabled: id === authenticatorId,
        });
      }
    }

    async function register(token: string, name: string): Promise<{ id: string; name: string }> {
      const started = await gql<{ startPasskeyRegistration: Json }>('mutation { startPasskeyRegistration }', {}, token);
      expect(started.errors).toBeUndefined();
      challenges.add(started.data!.startPasskeyRegistration.challenge as string);
      const response = await page.evaluate(
        (optionsJSON) => (globalThis as any).SimpleWebAuthnBrowser.startRegistration({ optionsJSON }),
        started.data!.startPasskeyRegistration,
      );
      const finished = await gql<{ finishPasskeyRegistration: { id: string; name: string } }>(
        'mutation($name: String!, $response: JSONObject!) { finishPasskeyRegistration(name: $name, response: $response) { id name } }',
        { name, response },
        token,
      );
      expect(finished.errors).toBeUndefined();
      return finished.data!.finishPasskeyRegistration;
    }

    /** The browser's answer to a sign-in's options (`challenge`: the password's, for a second factor). */
    async function answerSignIn(challenge?: string): Promise<Json> {
      const started = await gql<{ startPasskeySignIn: Json }>(
        'mutation($challenge: String) { startPasskeySignIn(challenge: $challenge) }',
        { challenge },
      );
      expect(started.errors).toBeUndefined();
      challenges.add(started.data!.startPasskeySignIn.challenge as string);
      return page.evaluate(
        (optionsJSON) => (globalThis as any).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON }),
        started.data!.startPasskeySignIn,
      );
    }

    function finishSignIn(response: Json, challenge?: string) {
      return gql<{ finishPasskeySignIn: { token: string } }>(
        'mutation($response: JSONObject!, $challenge: String) { finishPasskeySignIn(response: $response, challenge: $challenge) { token } }',
        { response, challenge },
      );
    }

    async function whoIs(token: string): Promise<string> {
      const me = await gql<{ me: { email: string } }>('{ me { email } }', {}, token);
      return me.data!.me.email;
    }

    function codes(result: GraphQLResult<unknown>): unknown[] {
      return (result.errors ?? []).map((error) => error.extensions?.code);
    }

    beforeAll(async () => {
      services = await createTestServices(
        { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'debug', TRUST_PROXY: 'true' },
        { logDestination: { write: (line: string) => logLines.push(line) } },
      );
      await ensureAdmin(services);
      admin = await startAdmin(services);
      origin = admin.url.replace('127.0.0.1', 'localhost');
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
      page = await browser.newPage();
      await page.goto(`${origin}/sign-in`);
      await page.evaluate(await readFile(BROWSER_BUNDLE, 'utf8'));
      cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      ownerToken = (await login(ADMIN.email, ADMIN.password)).data!.login.token;
    });

    afterAll(async () => {
      await browser?.close();
      await admin?.close();
      await services?.close();
    });

    it('refuses passkeys at an IP address, saying what to do instead', async () => {
      const result = await graphqlRequest(admin.url, 'mutation { startPasskeyRegistration }', {}, ownerToken);
      expect(codes(result)).toEqual(['BAD_USER_INPUT']);
      expect(result.errors![0]!.message).toMatch(/host name.*PUBLIC_ADMIN_URL/);
    });

    let laptop: string;
    let laptopPasskey: { id: string };

    it('registers a passkey that then signs in alone, without a password; an answer works once', async () => {
      laptop = await addAuthenticator('internal');
      await use(laptop);
      laptopPasskey = await register(ownerToken, '  Work laptop ');
      expect(laptopPasskey).toMatchObject({ name: 'Work laptop' });

      const response = await answerSignIn();
      const signedIn = await finishSignIn(response);
      expect(signedIn.errors).toBeUndefined();
      expect(await whoIs(signedIn.data!.finishPasskeySignIn.token)).toBe(ADMIN.email);
      // The same answer again: its challenge is used up.
      const replay = await finishSignIn(response);
      expect(codes(replay)).toEqual(['UNAUTHENTICATED']);

      const listed = await gql<{ passkeys: { name: string; lastUsedAt: string | null }[] }>(
        '{ passkeys { name lastUsedAt } }',
        {},
        ownerToken,
      );
      expect(listed.data!.passkeys).toEqual([{ name: 'Work laptop', lastUsedAt: expect.any(String) }]);
      // A second factor, though not a TOTP one: `me` and the member list say so.
      const me = await gql<{ me: { twoFactorEnabled: boolean; passkeyCount: number } }>(
        '{ me { twoFactorEnabled passkeyCount } members { email passkeyCount } }',
        {},
        ownerToken,
      );
      expect(me.data).toEqual({
        me: { twoFactorEnabled: false, passkeyCount: 1 },
        members: [{ email: ADMIN.email, passkeyCount: 1 }],
      });
    });

    it('refuses a malformed registration answer as bad input, and names the passkeys held to exclude them', async () => {
      const started = await gql<{ startPasskeyRegistration: Json }>(
        'mutation { startPasskeyRegistration }',
        {},
        ownerToken,
      );
      const malformed = await gql(
        'mutation($r: JSONObject!) { finishPasskeyRegistration(name: "x", response: $r) { id } }',
        { r: { id: 'x', type: 'public-key' } },
        ownerToken,
      );
      expect(codes(malformed)).toEqual(['BAD_USER_INPUT']);
      // An authenticator that already holds one of this member's passkeys is not asked to make another.
      const excluded = started.data!.startPasskeyRegistration.excludeCredentials as { id: string }[];
      expect(excluded.map((credential) => credential.id)).toHaveLength(1);
    });

    let phone: string;

    it('keeps a second passkey on another authenticator; a removed one signs in no more', async () => {
      phone = await addAuthenticator('usb');
      await use(phone);
      const phonePasskey = await register(ownerToken, 'Phone');
      const renamed = await gql<{ renamePasskey: { name: string } }>(
        'mutation($id: ID!) { renamePasskey(id: $id, name: "Pixel") { name } }',
        { id: phonePasskey.id },
        ownerToken,
      );
      expect(renamed.data!.renamePasskey.name).toBe('Pixel');

      const removed = await gql('mutation($id: ID!) { removePasskey(id: $id) }', { id: laptopPasskey.id }, ownerToken);
      expect(removed.errors).toBeUndefined();
      await use(laptop);
      // The laptop still holds its credential; the server no longer knows it.
      const refused = await finishSignIn(await answerSignIn());
      expect(codes(refused)).toEqual(['UNAUTHENTICATED']);
      await use(phone);
      const accepted = await finishSignIn(await answerSignIn());
      expect(accepted.errors).toBeUndefined();
      expect(await whoIs(accepted.data!.finishPasskeySignIn.token)).toBe(ADMIN.email);
    });

    it('serves as the second factor after a right password, for that member only', async () => {
      const first = await login(ADMIN.email, ADMIN.password);
      expect(codes(first)).toEqual(['SECOND_FACTOR_REQUIRED']);
      const { challenge, methods } = first.errors![0]!.extensions as { challenge: string; methods: string[] };
      expect(methods).toEqual(['passkey']);
      await use(phone);
      // The answer to a second-factor sign-in needs the password's challenge beside it.
      const alone = await finishSignIn(await answerSignIn(challenge));
      expect(codes(alone)).toEqual(['UNAUTHENTICATED']);
      const second = await finishSignIn(await answerSignIn(challenge), challenge);
      expect(second.errors).toBeUndefined();
      expect(await whoIs(second.data!.finishPasskeySignIn.token)).toBe(ADMIN.email);
      // The password's challenge is used up too.
      const again = await gql('mutation($c: String) { startPasskeySignIn(challenge: $c) }', { c: challenge });
      expect(codes(again)).toEqual(['UNAUTHENTICATED']);
    });

    it("counts forged answers against the sender's address only: the member's own passkey still signs in", async () => {
      // Answers naming the owner's phone passkey with a signature that is garbage, each to a fresh
      // challenge, from one address (a proxy in front says which), as someone who knows the
      // credential id (it is no secret) but holds no authenticator would send them.
      const [pixel] = await services.db.em
        .fork()
        .execute<{ credential_id: string }[]>(`select credential_id from passkeys where name = 'Pixel'`);
      const credentialId = pixel!.credential_id;
      const forger = '198.51.100.7';
      const forged = async (): Promise<GraphQLResult<unknown>> => {
        const started = await gqlFrom<{ startPasskeySignIn: Json }>(forger, 'mutation { startPasskeySignIn }');
        if (started.errors !== undefined) {
          return started;
        }
        const challenge = started.data!.startPasskeySignIn.challenge as string;
        challenges.add(challenge);
        const clientData = { type: 'webauthn.get', challenge, origin, crossOrigin: false };
        const response = {
          id: credentialId,
          rawId: credentialId,
          type: 'public-key',
          clientExtensionResults: {},
          response: {
            clientDataJSON: Buffer.from(JSON.stringify(clientData)).toString('base64url'),
            authenticatorData: randomBytes(37).toString('base64url'),
            signature: randomBytes(72).toString('base64url'),
          },
        };
        return gqlFrom(
          forger,
          'mutation($response: JSONObject!) { finishPasskeySignIn(response: $response) { token } }',
          { response },
        );
      };
      // More than the member's own limit of 20 wrong second-factor answers: each is a plain failure.
      for (let attempt = 1; attempt <= 21; attempt++) {
        expect([attempt, codes(await forged())]).toEqual([attempt, ['UNAUTHENTICATED']]);
      }
      // The sender's address runs into the sign-in limit of one address (100 attempts: a start and a
      // failed answer each count), and stays refused.
      let refusedAt = 0;
      for (let attempt = 22; attempt <= 60 && refusedAt === 0; attempt++) {
        refusedAt = codes(await forged()).includes('RATE_LIMITED') ? attempt : 0;
      }
      expect(refusedAt).toBeGreaterThan(21);
      expect(refusedAt).toBeLessThanOrEqual(51);

      // The member, from their own address, signs in with the passkey: alone and after the password.
      await use(phone);
      const alone = await finishSignIn(await answerSignIn());
      expect(alone.errors).toBeUndefined();
      const first = await login(ADMIN.email, ADMIN.password);
      const { challenge } = first.errors![0]!.extensions as { challenge: string };
      const second = await finishSignIn(await answerSignIn(challenge), challenge);
      expect(second.errors).toBeUndefined();
    });

    it("answers another member's passkey as if it did not exist, and counts it as their second factor", async () => {
      const created = await gql<{ createMember: { member: { id: string }; password: string } }>(
        'mutation { createMember(input: { email: "second@example.com", name: "Second", role: member, grants: [] }) { member { id } password } }',
        {},
        ownerToken,
      );
      const memberToken = (await login('second@example.com', created.data!.createMember.password)).data!.login.token;
      const ownerPasskeys = await gql<{ passkeys: { id: string }[] }>('{ passkeys { id } }', {}, ownerToken);
      const foreign = await gql(
        'mutation($id: ID!) { removePasskey(id: $id) }',
        { id: ownerPasskeys.data!.passkeys[0]!.id },
        memberToken,
      );
      expect(codes(foreign)).toEqual(['NOT_FOUND']);

      // The team requires a second factor: the member is held until a passkey is theirs.
      await gql(
        'mutation { updateTeamPolicy(input: { requireSecondFactor: true }) { requireSecondFactor } }',
        {},
        ownerToken,
      );
      const held = await gql('{ sites { id } }', {}, memberToken);
      expect(codes(held)).toEqual(['SECOND_FACTOR_ENROLMENT_REQUIRED']);
      const key = await addAuthenticator('usb');
      await use(key);
      await register(memberToken, 'Security key');
      const free = await gql('{ sites { id } }', {}, memberToken);
      expect(free.errors).toBeUndefined();
      await gql(
        'mutation { updateTeamPolicy(input: { requireSecondFactor: false }) { requireSecondFactor } }',
        {},
        ownerToken,
      );
    });

    it("refuses an answer whose user handle names another member than the passkey's own", async () => {
      await use(phone);
      const response = await answerSignIn();
      const answer = response.response as Json;
      expect(answer.userHandle).toEqual(expect.any(String));
      answer.userHandle = Buffer.from(randomUUID().replaceAll('-', ''), 'hex').toString('base64url');
      expect(codes(await finishSignIn(response))).toEqual(['UNAUTHENTICATED']);
    });

    it('refuses a passkey whose signature counter went backwards (a cloned authenticator)', async () => {
      await use(phone);
      await services.db.em.fork().execute(`update passkeys set counter = 1000000 where name = 'Pixel'`);
      const refused = await finishSignIn(await answerSignIn());
      expect(codes(refused)).toEqual(['UNAUTHENTICATED']);
    });

    it('confirms an old sign-in with a passkey, signing out a copied cookie; a password change lists what a thief added', async () => {
      const created = await gql<{ createMember: { password: string } }>(
        'mutation { createMember(input: { email: "victim@example.com", name: "Victim", role: member, grants: [] }) { password } }',
        {},
        ownerToken,
      );
      const password = created.data!.createMember.password;
      // The member's browser holds only the keys this test gives it: with the earlier tests' keys
      // (none of them listed) still present, Chromium refused one ceremony in two (NotAllowedError).
      for (const id of authenticators.splice(0)) {
        await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: id });
      }
      // The member's own passkey, added right after a sign-in.
      const ownKey = await addAuthenticator('usb');
      await use(ownKey);
      await register((await login('victim@example.com', password)).data!.login.token, 'Own laptop');

      // A sign-in with the password and that passkey, in a browser whose cookie a thief copies.
      const first = await login('victim@example.com', password);
      const { challenge } = first.errors![0]!.extensions as { challenge: string };
      const signedIn = await withCookie(
        undefined,
        'mutation($response: JSONObject!, $challenge: String) { finishPasskeySignIn(response: $response, challenge: $challenge) { token } }',
        { response: await answerSignIn(challenge), challenge },
      );
      expect(signedIn.body.errors).toBeUndefined();
      const copied = signedIn.cookie!;

      // At once, the thief adds a passkey of their own with the copied cookie: the sign-in is recent.
      const thiefKey = await addAuthenticator('usb');
      await use(thiefKey);
      const added = await registerWithCookie(copied, 'Thief key');
      expect(added.body.errors).toBeUndefined();

      // Ten minutes on, the same cookie may not add another, and says what confirms it.
      await services.db.em
        .fork()
        .execute(
          `update admin_sessions set created_at = created_at - interval '11 minutes' where admin_id = (select id from admin_users where email = 'victim@example.com')`,
        );
      const refused = await withCookie(copied, 'mutation { startPasskeyRegistration }');
      expect(codes(refused.body as GraphQLResult<unknown>)).toEqual(['RECENT_SIGN_IN_REQUIRED']);
      expect(refused.body.errors![0]!.extensions).toMatchObject({ methods: ['password', 'passkey'] });

      // The member confirms with their own passkey; the copied cookie is signed out by it.
      await use(ownKey);
      const options = await withCookie(copied, 'mutation { startPasskeyConfirmation }');
      expect(options.body.errors).toBeUndefined();
      const confirmationOptions = options.body.data!.startPasskeyConfirmation as Json;
      challenges.add(confirmationOptions.challenge as string);
      expect((confirmationOptions.allowCredentials as unknown[]).length).toBe(2);
      const answer = await page.evaluate(
        (optionsJSON) => (globalThis as any).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON }),
        confirmationOptions,
      );
      const confirmed = await withCookie(
        copied,
        'mutation($r: JSONObject!) { confirmSignIn(passkeyResponse: $r) { token } }',
        { r: answer },
      );
      expect(confirmed.body.errors).toBeUndefined();
      const fresh = confirmed.cookie!;
      expect(fresh).not.toBe(copied);
      expect((await withCookie(copied, '{ me { email } }')).status).toBe(401);

      // The password change lists the thief's passkey (added after the last password sign-in), not
      // the member's own, and the new session removes it without asking again.
      const changed = await withCookie(
        fresh,
        'mutation($p: String!) { changePassword(currentPassword: $p, newPassword: "a new password for the victim") { passkeysSincePasswordSignIn { id name } } }',
        { p: password },
      );
      expect(changed.body.errors).toBeUndefined();
      const listed = (
        changed.body.data!.changePassword as { passkeysSincePasswordSignIn: { id: string; name: string }[] }
      ).passkeysSincePasswordSignIn;
      expect(listed.map((passkey) => passkey.name)).toEqual(['Thief key']);
      const removed = await withCookie(changed.cookie!, 'mutation($id: ID!) { removePasskey(id: $id) }', {
        id: listed[0]!.id,
      });
      expect(removed.body.errors).toBeUndefined();
      await use(thiefKey);
      expect(codes(await finishSignIn(await answerSignIn()))).toEqual(['UNAUTHENTICATED']);
    });

    it('records sign-ins with their method, and never a challenge or an answer', async () => {
      const log = await gql<{ auditLog: { edges: { node: { action: string; outcome: string; details: Json } }[] } }>(
        '{ auditLog(first: 100) { edges { node { action outcome details } } } }',
        {},
        ownerToken,
      );
      const entries = log.data!.auditLog.edges.map((edge) => edge.node);
      const signIns = entries.filter((entry) => entry.action === 'finishPasskeySignIn');
      expect(signIns.filter((entry) => entry.outcome === 'SUCCESS').map((entry) => entry.details.method)).toEqual(
        expect.arrayContaining(['passkey', 'password+passkey']),
      );
      expect(signIns.some((entry) => entry.outcome === 'FAILURE')).toBe(true);
      const stored = JSON.stringify(await services.db.em.fork().execute('select * from audit_log'));
      expect(stored).not.toMatch(/clientDataJSON|attestationObject|signature"|challenge"/);
      // Neither the audit log nor any log line (at debug level) holds a challenge the API handed out.
      expect(challenges.size).toBeGreaterThan(5);
      const logged = logLines.join('');
      expect(logLines.length).toBeGreaterThan(20);
      for (const challenge of challenges) {
        expect([stored.includes(challenge), logged.includes(challenge)]).toEqual([false, false]);
      }
    });
  },
);
