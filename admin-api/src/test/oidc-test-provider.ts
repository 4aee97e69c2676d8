// A real OpenID provider on loopback for the single sign-on tests: `oidc-provider` (a certified
// implementation) with one confidential client for Intake. Its login and consent steps approve at
// once, as the account the test names in `signInAs`. It listens behind a small forwarding proxy at
// the issuer's address, which plays a man in the middle on plain http when a test asks it to
// (`interceptAnswers`): it rewrites the token, userinfo or key set answers on their way to Intake.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface TestClaims {
  email?: string;
  email_verified?: boolean | string;
  name?: string;
}

export interface TestAccount extends TestClaims {
  /** What the ID token says instead of the claims above (userinfo keeps those): a provider that puts less, or else, in it. */
  idToken?: TestClaims;
}

type Json = Record<string, unknown>;

/** What the man in the middle changes in the provider's answers to Intake (JSON in, JSON out). */
export interface AnswerRewriter {
  token?(body: Json): Json | Promise<Json>;
  userinfo?(body: Json): Json | Promise<Json>;
  jwks?(body: Json): Json | Promise<Json>;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The key id the provider signs its ID tokens with. */
  signingKeyId: string;
  /** The account the next login at the provider signs in as (its id is the `sub`). */
  signInAs(accountId: string, claims: TestAccount): void;
  /** Lifetime of the authorization codes issued from now on (default 60 s). */
  setCodeTtlSeconds(seconds: number): void;
  /** Registers a callback of Intake (known once the admin listens); earlier ones stay valid. */
  allowRedirect(redirectUri: string): void;
  /** From now on, answers pass through this rewriter on their way to Intake; null: unchanged. */
  interceptAnswers(rewriter: AnswerRewriter | null): void;
  close(): Promise<void>;
}

const SIGNING_KEY_ID = 'test-key';
const ROUTES = { token: '/token', userinfo: '/me', jwks: '/jwks' } as const;

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: SIGNING_KEY_ID, alg: 'RS256', use: 'sig' };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Forwards every request to the provider; a successful JSON answer of a rewritten route is changed first. */
function forwardingProxy(providerPort: number, rewriterOf: (path: string) => AnswerRewriter[keyof AnswerRewriter]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      { host: '127.0.0.1', port: providerPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        delete headers.connection;
        const rewrite = rewriterOf(new URL(req.url ?? '/', 'http://provider.invalid').pathname);
        if (rewrite === undefined || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
          return;
        }
        readBody(answer)
          .then(async (body) => Buffer.from(JSON.stringify(await rewrite(JSON.parse(body.toString('utf8')) as Json))))
          .then((changed) => {
            delete headers.etag;
            res.writeHead(200, { ...headers, 'content-length': changed.length });
            res.end(changed);
          })
          .catch(() => res.writeHead(502).end());
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) {
        res.writeHead(502).end();
      }
    });
    req.pipe(upstream);
  };
}

/** Listens first, so the issuer's port is known before Intake (and then the provider) is configured. */
export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const provider: Server = createServer((req, res) => {
    if (handler === undefined) {
      res.writeHead(503).end();
      return;
    }
    handler(req, res);
  });
  const providerPort = await listen(provider);
  let rewriter: AnswerRewriter | null = null;
  const front: Server = createServer(
    forwardingProxy(providerPort, (path) => {
      const route = (Object.keys(ROUTES) as (keyof typeof ROUTES)[]).find((name) => ROUTES[name] === path);
      return route === undefined ? undefined : rewriter?.[route]?.bind(rewriter);
    }),
  );
  const issuer = `http://127.0.0.1:${await listen(front)}`;
  const clientId = 'intake';
  const clientSecret = randomBytes(24).toString('base64url');
  const accounts = new Map<string, TestAccount>();
  let nextAccount = 'nobody';
  let codeTtlSeconds = 60;
  const redirectUris: string[] = [];
  // One key for every provider made below, so ID tokens verify against the keys Intake fetched.
  const key = signingKey();
  const cookieKey = randomBytes(16).toString('hex');

  const claimsOf = (id: string, use: string) => {
    const { idToken, ...claims } = accounts.get(id) ?? {};
    return { sub: id, ...(use === 'id_token' && idToken !== undefined ? idToken : claims) };
  };

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
      // The ID token carries the claims of the scopes granted (as Keycloak's, Google's and Entra ID's do).
      conformIdTokenClaims: false,
      routes: ROUTES,
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      ttl: { AuthorizationCode: () => codeTtlSeconds, IdToken: () => 3600 },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: (use: string) => claimsOf(id, use) as { sub: string },
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
    signingKeyId: SIGNING_KEY_ID,
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
    interceptAnswers(next) {
      rewriter = next;
    },
    async close() {
      for (const server of [front, provider]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
