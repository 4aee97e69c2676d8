import type { Config } from '@intake/shared/config';
import { adminIsHttps } from '@intake/shared/public-urls';
import { createFlowCookies, type FlowCookies } from './flow-cookie.js';
import { CALLBACK_PATH, createOidcClient, type OidcClient } from './oidc-client.js';

/** Single sign-on as configured: its settings, the provider's client and the flow cookie. */
export interface SsoDeps {
  settings: NonNullable<Config['oidc']>;
  client: OidcClient;
  flowCookies: FlowCookies;
}

/** Null when OIDC_ISSUER_URL is unset. The redirect URI is `<admin origin>/auth/oidc/callback`. */
export function createSsoDeps(config: Config, publicOrigin: () => string): SsoDeps | null {
  if (config.oidc === undefined) {
    return null;
  }
  return {
    settings: config.oidc,
    client: createOidcClient(config.oidc, () => `${publicOrigin()}${CALLBACK_PATH}`),
    flowCookies: createFlowCookies(config.tokenEncryptionKey, adminIsHttps(config)),
  };
}
