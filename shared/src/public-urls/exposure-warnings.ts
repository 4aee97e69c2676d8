// What a service says at start when its settings expose it or would write links nobody elsewhere
// can open. Each warning names what to do (docs/deployment.md).
import type { Config } from '../config/types.js';
import {
  configuredAdminOrigin,
  configuredGatewayOrigin,
  isLoopbackHost,
  type PublicOrigins,
  type PublicUrlConfig,
} from './public-urls.js';

export type ExposureConfig = PublicUrlConfig & { rateLimits: Pick<Config['rateLimits'], 'trustProxy'> };

/** The start-up warnings of one service; empty when nothing is amiss. */
export function exposureWarnings(
  config: ExposureConfig,
  service: 'gateway' | 'admin' | 'worker',
  origins: PublicOrigins,
): string[] {
  const warnings: string[] = [];
  const { trustProxy } = config.rateLimits;
  const beyondLoopback = !isLoopbackHost(config.host);
  if (service !== 'worker' && beyondLoopback && !trustProxy) {
    warnings.push(
      `the ${service} listens on ${config.host}, beyond this machine, over plain HTTP: passwords, tokens and submissions cross the network unencrypted. ` +
        'Put a TLS proxy in front (docs/deployment.md), listen on 127.0.0.1 behind it, and set TRUST_PROXY=true and PUBLIC_URL=https://…',
    );
  }
  const admin = configuredAdminOrigin(config);
  if (service !== 'gateway' && admin === undefined && (beyondLoopback || trustProxy)) {
    if (isLoopbackHost(new URL(origins.admin).hostname)) {
      warnings.push(
        `PUBLIC_URL is unset: links written outside a request (download links in webhook payloads) go to ${origins.admin}, which other machines cannot open. ` +
          'Set PUBLIC_URL to the address people use, such as https://intake.example.com',
      );
    }
  }
  const own = service === 'gateway' ? configuredGatewayOrigin(config) : admin;
  if (service !== 'worker' && own?.startsWith('https://') === true && !trustProxy) {
    warnings.push(
      `the ${service}'s public address ${own} is https, so a proxy is in front, but TRUST_PROXY is off: the audit log and the rate limits see the proxy's address, not the client's. ` +
        'Set TRUST_PROXY=true (and TRUST_PROXY_HOPS to the number of proxies)',
    );
  }
  return warnings;
}
