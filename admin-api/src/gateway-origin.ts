import type { Config } from '@intake/shared/config';

const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Where site backends reach the gateway, when the process does not know the gateway's listening
 * URL (the admin runs as its own process): PUBLIC_GATEWAY_URL, else HOST:GATEWAY_PORT, with a
 * wildcard bind address shown as `localhost` (a URL to 0.0.0.0 reaches nothing from elsewhere).
 */
export function configuredGatewayOrigin(config: Pick<Config, 'publicGatewayUrl' | 'host' | 'gatewayPort'>): string {
  if (config.publicGatewayUrl) {
    return config.publicGatewayUrl;
  }
  const host = ANY_ADDRESS.has(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${config.gatewayPort}`;
}
