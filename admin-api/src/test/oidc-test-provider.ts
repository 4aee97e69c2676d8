// A real OpenID provider on loopback for the single sign-on tests: `oidc-provider` (a certified
// implementation) with one confidential client for Intake. Its login and consent steps approve at
// once, as the account the test names in `signInAs`: the provider's own checks (PKCE, code
// lifetime and single use, the nonce and signature of its ID tokens) stay as they are.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface TestAccount {
  email?: string;
  email_verified?: boolean | string;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next login at the provider signs in as (its id is the `sub`). */
  signInAs(accountId: string, claims: TestAccount): void;
  /** Lifetime of the authorization codes issued from now on (default 60 s). */
  setCodeTtlSeconds(seconds: number): void;
  /** Registers a callback of Intake (known once the admin listens); earlier ones stay valid. */
  allowRedirect(redirectUri: string): void;
  close(): Promise<void>;
}

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
}

/** Listens first, so the issuer's port is known before Intake (and then the provider) is configured. */
export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler === undefined) {
      res.writeHead(503).end();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'intake';
  const clientSecret = randomBytes(24).toString('base64url');
  const accounts = new Map<string, TestAccount>();
  let nextAccount = 'nobody';
  let codeTtlSeconds = 60;
  const redirectUris: string[] = [];
  // One key for every provider made below, so ID tokens verify against the keys Intake fetched.
  const key = signingKey();
  const cookieKey = randomBytes(16).toString('hex');

  const configure = (redirectUris: string[]): Provider => {
    const configuration: Configuration = {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [key] },
      cookies: { keys: [cookieKey] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      ttl: { AuthorizationCode: () => codeTtlSeconds },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: id, ...(accounts.get(id) ?? {}) }) as { sub: string },
      }),
    };
    const created = new Provider(issuer, configuration);
    // Its own warnings about development settings are of no use in a test's output.
    created.on('server_error', () => undefined);
    return created;
  };

  const approve = async (req: IncomingMessage, res: ServerResponse, oidc: Provider) => {
    const details = await oidc.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await oidc.interactionFinished(
        req,
        res,
        { login: { accountId: nextAccount } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new oidc.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    await oidc.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  };

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(accountId, claims) {
      accounts.set(accountId, claims);
      nextAccount = accountId;
    },
    setCodeTtlSeconds(seconds) {
      codeTtlSeconds = seconds;
    },
    allowRedirect(redirectUri) {
      redirectUris.push(redirectUri);
      // A provider's clients are fixed when it is made: a new one with the same keys.
      const oidc = configure([...redirectUris]);
      const callback = oidc.callback();
      handler = (req, res) => {
        if (req.url?.startsWith('/interaction/')) {
          approve(req, res, oidc).catch(() => {
            if (!res.headersSent) {
              res.writeHead(500).end();
            }
          });
          return;
        }
        callback(req, res);
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
