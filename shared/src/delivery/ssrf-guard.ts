// The SSRF guard of webhook requests. Only public unicast addresses may be reached: loopback,
// private, link-local (cloud metadata at 169.254.169.254), unique-local, carrier-grade NAT,
// multicast and every other special range are refused, unless WEBHOOK_ALLOW_PRIVATE=true.
// Names are resolved here and the connection goes to the very address that was checked (the
// `lookup` below is what node:http connects with), so DNS rebinding cannot slip past the check.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// Not in the error catalogue (shared/src/errors.ts): a refused address fails a webhook delivery,
// whose log records this message; no request of a client is answered with it.
export class AddressRefusedError extends Error {
  readonly code = 'ADDRESS_REFUSED';
  constructor(
    readonly address: string,
    readonly range: string,
  ) {
    // Shown in the delivery log: says which setting lifts the rule.
    super(`address refused: ${address} is ${range} (WEBHOOK_ALLOW_PRIVATE=true allows it)`);
    this.name = 'AddressRefusedError';
  }
}

/**
 * The special range an address is in ('unicast' for a public address); IPv4-mapped IPv6 as IPv4.
 * ipaddr.js names NAT64 (`64:ff9b::/96`, rfc6052), 6to4 (`2002::/16`), the discard prefix
 * (`100::/64`), Teredo and the other IANA special ranges, all refused since only 'unicast' passes.
 * It has no range for the deprecated IPv4-compatible addresses (`::/96`, RFC 4291), which a URL
 * such as `http://[::127.0.0.1]/` turns into (`[::7f00:1]`) and which some stacks still route
 * to the embedded IPv4 address: those are named here.
 */
export function addressRange(address: string): string {
  const unbracketed = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(unbracketed)) {
    return 'invalid';
  }
  const parsed = ipaddr.process(unbracketed);
  const range = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6' && isIpv4Compatible(parsed as ipaddr.IPv6)) {
    return 'ipv4Compatible';
  }
  return range;
}

function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}

export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/** Throws AddressRefusedError unless the address is public (or private ones are allowed). */
export function assertAllowedAddress(address: string, allowPrivate: boolean): void {
  if (!allowPrivate && !isPublicAddress(address)) {
    throw new AddressRefusedError(address.replace(/^\[|\]$/g, ''), addressRange(address));
  }
}

/** For an IP-literal host (which node:http connects to without a lookup): throws when refused. */
export function assertAllowedHost(hostname: string, allowPrivate: boolean): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    assertAllowedAddress(host, allowPrivate);
  }
}

/**
 * A `lookup` for node:http/https that resolves the name and refuses the connection when any of its
 * addresses is refused (a name with one public and one private address is not trusted either).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family ?? 0, hints: options.hints ?? 0, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const list = addresses as LookupAddress[];
      try {
        if (list.length === 0) {
          throw new Error(`no address for ${hostname}`);
        }
        for (const entry of list) {
          assertAllowedAddress(entry.address, allowPrivate);
        }
      } catch (refusal) {
        callback(refusal as NodeJS.ErrnoException, '', 0);
        return;
      }
      if (options.all) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, list);
      } else {
        const first = list[0] as LookupAddress;
        callback(null, first.address, first.family);
      }
    });
  };
}
