// The one place that says where people and site backends reach Intake (docs/configuration.md#public-addresses):
// every link the product writes takes its origin from here. PUBLIC_URL is the base; the console is
// at it and the gateway follows it; PUBLIC_ADMIN_URL and PUBLIC_GATEWAY_URL override either side.
import ipaddr from 'ipaddr.js';
import type { Config } from '../config/types.js';

export type PublicUrlConfig = Pick<
  Config,
  'publicUrl' | 'publicAdminUrl' | 'publicGatewayUrl' | 'host' | 'adminPort' | 'gatewayPort'
>;

/** What a running process knows beyond the configuration. */
export interface Observed {
  /** The admin's real port (ADMIN_PORT may be 0). */
  adminPort?: number;
  /** The gateway's real port (GATEWAY_PORT may be 0). */
  gatewayPort?: number;
  /** The origin a request was made to (Host, or a trusted proxy's X-Forwarded-Host and -Proto). */
  requestOrigin?: string;
}

export interface PublicOrigins {
  /** The console and the admin API: invitations, download and export links, passkeys, OIDC. */
  admin: string;
  /** The gateway: endpoint URLs, examples, the browser form's action and scripts. */
  gateway: string;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** True for `localhost` and loopback addresses (127.0.0.0/8, ::1). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) {
    return true;
  }
  if (!ipaddr.isValid(bare)) {
    return false;
  }
  const address = ipaddr.process(bare);
  return address.range() === 'loopback';
}

/** True for a bind address that accepts every interface (0.0.0.0, ::). */
export function isWildcardHost(host: string): boolean {
  return WILDCARDS.has(host.trim());
}

/** A host as it goes into a URL: wildcards and loopback as `localhost` (passkeys refuse IP addresses). */
function linkHost(host: string): string {
  if (isWildcardHost(host) || isLoopbackHost(host)) {
    return 'localhost';
  }
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The origin of an http(s) URL, or undefined when it is not one. */
function originOf(value: string | undefined): URL | undefined {
  if (value === undefined) {
    return undefined;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? new URL(url.origin) : undefined;
  } catch {
    return undefined;
  }
}

/** A request's origin with a wildcard host (someone typed http://0.0.0.0:4000) read as localhost. */
function requestBase(requestOrigin: string | undefined): URL | undefined {
  const url = originOf(requestOrigin);
  if (url !== undefined && isWildcardHost(url.hostname)) {
    url.hostname = 'localhost';
  }
  return url;
}

/**
 * The gateway beside a base address. A base on the admin's own port is the admin reached directly,
 * so the gateway is the same host on its port; any other base is a proxy that serves both, the
 * gateway's paths (/api/v1/, /browser/) at the same origin.
 */
function gatewayBeside(base: URL, adminPort: number, gatewayPort: number): string {
  const url = new URL(base.origin);
  if (url.port === String(adminPort)) {
    url.port = String(gatewayPort);
  }
  return url.origin;
}

/** The admin's origin as configured (PUBLIC_ADMIN_URL, else PUBLIC_URL), or undefined. */
export function configuredAdminOrigin(config: PublicUrlConfig): string | undefined {
  return originOf(config.publicAdminUrl ?? config.publicUrl)?.origin;
}

/** The gateway's origin as configured (PUBLIC_GATEWAY_URL, else following the base), or undefined. */
export function configuredGatewayOrigin(config: PublicUrlConfig, observed: Observed = {}): string | undefined {
  if (config.publicGatewayUrl !== undefined) {
    return originOf(config.publicGatewayUrl)?.origin;
  }
  const base = originOf(config.publicUrl ?? config.publicAdminUrl);
  return (
    base && gatewayBeside(base, observed.adminPort ?? config.adminPort, observed.gatewayPort ?? config.gatewayPort)
  );
}

/**
 * Both origins. What is configured wins; else the address the request came to (the one the person
 * used, so it reaches the service); else, with no request (the worker, the start line), HOST on the
 * ports, with `localhost` for a loopback or wildcard HOST. Never 0.0.0.0.
 */
export function publicOrigins(config: PublicUrlConfig, observed: Observed = {}): PublicOrigins {
  const adminPort = observed.adminPort ?? config.adminPort;
  const gatewayPort = observed.gatewayPort ?? config.gatewayPort;
  const base =
    originOf(config.publicUrl ?? config.publicAdminUrl) ??
    requestBase(observed.requestOrigin) ??
    new URL(`http://${linkHost(config.host)}:${adminPort}`);
  return {
    admin: configuredAdminOrigin(config) ?? base.origin,
    gateway: configuredGatewayOrigin(config, observed) ?? gatewayBeside(base, adminPort, gatewayPort),
  };
}

/** True when the console's public address is https: cookies are Secure and HSTS is sent. */
export function adminIsHttps(config: PublicUrlConfig): boolean {
  return configuredAdminOrigin(config)?.startsWith('https://') === true;
}

/** True when the gateway's public address is https. */
export function gatewayIsHttps(config: PublicUrlConfig): boolean {
  return configuredGatewayOrigin(config)?.startsWith('https://') === true;
}

/** Strict-Transport-Security for answers on an https public address: a year, this host only. */
export const HSTS_HEADER = 'max-age=31536000';
