import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * Which peers may speak for the client through X-Forwarded-For / X-Forwarded-Proto (TRUST_PROXY):
 * `false` none (the default), `true` the one peer in front, whoever it is (the old switch, kept for
 * compatibility), or a list of proxy addresses and CIDR ranges: then the headers count only when the
 * socket peer is in the list, and the client is the right-most X-Forwarded-For entry that is not one
 * of the listed proxies.
 */
export type TrustProxy = boolean | readonly string[];

/** Whether `entry` is an IPv4/IPv6 address or CIDR range (`10.0.0.0/8`, `::1`, `fd00::/8`). */
export function isAddressOrCidr(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (!family) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

const lists = new WeakMap<readonly string[], BlockList>();

function blockList(entries: readonly string[]): BlockList {
  let list = lists.get(entries);
  if (!list) {
    list = new BlockList();
    for (const entry of entries) {
      const [address, bits] = entry.split('/') as [string, string | undefined];
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(bits), family);
    }
    lists.set(entries, list);
  }
  return list;
}

/** Whether the address (already normalised: no `::ffff:` prefix for IPv4) belongs to a trusted proxy. */
export function isTrustedProxy(trust: TrustProxy, address: string | null | undefined): boolean {
  if (typeof trust === 'boolean') return trust;
  if (!address) return false;
  const family = isIP(address);
  if (!family) return false;
  const list = blockList(trust);
  if (list.check(address, family === 6 ? 'ipv6' : 'ipv4')) return true;
  // An IPv4 peer seen on a dual-stack socket as ::ffff:a.b.c.d matches an IPv4 entry too.
  return family === 6 && /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)
    ? list.check(address.slice(7), 'ipv4')
    : false;
}

/**
 * The client address behind trusted proxies: `peer` itself unless it is a trusted proxy; then the
 * X-Forwarded-For entries from the right, skipping trusted proxies (with `true`: the last entry).
 * `normalize` turns a header entry into an address (or null when it is not one).
 */
export function forwardedClient(
  trust: TrustProxy,
  peer: string | null,
  forwardedFor: string | undefined,
  normalize: (raw: string | undefined) => string | null,
): string | null {
  if (trust === false || !forwardedFor) return peer;
  const entries = forwardedFor.split(',');
  if (trust === true) return normalize(entries.at(-1)) ?? peer;
  if (!isTrustedProxy(trust, peer)) return peer;
  for (let i = entries.length - 1; i >= 0; i--) {
    const ip = normalize(entries[i]);
    if (!ip) return peer;
    if (!isTrustedProxy(trust, ip)) return ip;
  }
  return normalize(entries[0]) ?? peer;
}

/** The socket peer's address (IPv4 without its `::ffff:` prefix), or null without a socket. */
export function socketPeer(c: Context): string | null {
  try {
    const address = getConnInfo(c).remote.address;
    if (!address) return null;
    return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
  } catch {
    return null;
  }
}
