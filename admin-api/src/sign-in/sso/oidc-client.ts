// Single sign-on with the organisation's OpenID provider, on openid-client (authorization code flow
// with PKCE): the library discovers the provider, builds the authorization URL, and on the way back
// checks state, nonce, issuer, audience and expiry of the ID token, and (enableNonRepudiationChecks)
// its signature against the provider's published keys. This module adds only what Intake decides:
// which scopes, where the provider sends people back, and which claims it reads (email-claims.ts).
import * as oidc from 'openid-client';
import type { OidcConfig } from '@intake/shared/config';
import { emailClaimsOf, needsUserInfo } from './email-claims.js';
import { SsoSignInError } from './sign-in-failure.js';
import type { SsoFlow } from './flow-cookie.js';

export const CALLBACK_PATH = '/auth/oidc/callback';
/** Metadata and keys are discovered again after this (a provider rotates its keys). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const REQUEST_TIMEOUT_SECONDS = 10;

/** What Intake reads from the provider about the person. */
export interface SsoIdentity {
  /** The provider's `iss` and `sub`: the account at the provider, whatever its e-mail. */
  issuer: string;
  subject: string;
  /** Lower case. */
  email: string;
  /** The provider vouches the person controls the address. */
  emailVerified: boolean;
  name: string | undefined;
}

export interface OidcClient {
  /** The provider's authorization URL for a new attempt, and what the callback must check. */
  begin(next: string): Promise<{ url: URL; flow: Omit<SsoFlow, 'expiresAt'> }>;
  /** Redeems the callback's code under the library's checks; the identity of the person. */
  finish(query: string, flow: SsoFlow): Promise<SsoIdentity>;
}

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) || /^127\./.test(url.hostname);
}

export function createOidcClient(settings: OidcConfig, redirectUri: () => string): OidcClient {
  const issuer = new URL(settings.issuerUrl);
  // Plain http is accepted only for a provider on this machine (the configuration says so). There no
  // TLS vouches for the answers, so nothing of the unsigned userinfo answer is believed either.
  const plainHttp = issuer.protocol === 'http:' && isLoopback(issuer);
  let discovered: { at: number; configuration: Promise<oidc.Configuration> } | undefined;
  const configuration = (): Promise<oidc.Configuration> => {
    if (discovered === undefined || Date.now() - discovered.at > DISCOVERY_TTL_MS) {
      const attempt = oidc.discovery(
        issuer,
        settings.clientId,
        undefined,
        settings.clientSecret === undefined ? oidc.None() : oidc.ClientSecretPost(settings.clientSecret),
        {
          // openid-client skips the signature of an ID token from the token endpoint unless asked,
          // since TLS may stand in for it (OpenID Connect Core 3.1.3.7); Intake checks every one.
          execute: [oidc.enableNonRepudiationChecks, ...(plainHttp ? [oidc.allowInsecureRequests] : [])],
          timeout: REQUEST_TIMEOUT_SECONDS,
        },
      );
      discovered = { at: Date.now(), configuration: attempt };
      // A failed discovery is tried again by the next attempt, not remembered for an hour.
      attempt.catch(() => {
        if (discovered?.configuration === attempt) {
          discovered = undefined;
        }
      });
    }
    return discovered.configuration;
  };

  return {
    async begin(next) {
      const config = await configuration();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri(),
        scope: settings.scopes,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url, flow: { state, nonce, codeVerifier, next } };
    },

    async finish(query, flow) {
      const config = await configuration();
      const currentUrl = new URL(redirectUri());
      currentUrl.search = query;
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (idClaims === undefined) {
        throw new SsoSignInError('sso_token_invalid');
      }
      // The e-mail and whether it is verified come from one answer: the ID token when it says both;
      // else (over https only) the userinfo answer, whose subject the library checks against the token's.
      const source =
        needsUserInfo(idClaims) && !plainHttp && config.serverMetadata().userinfo_endpoint
          ? await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)
          : idClaims;
      const { email, verified } = emailClaimsOf(source);
      const name = source.name ?? idClaims.name;
      return {
        issuer: idClaims.iss,
        subject: idClaims.sub,
        email,
        emailVerified: verified,
        name: typeof name === 'string' ? name : undefined,
      };
    },
  };
}
