import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { normalizeIp } from '../domain/events';
import type { RequestMeta } from '../types';
import { forwardedClient, type TrustProxy } from './trust-proxy';

/*
 * Request plumbing (docs/decisions/055-server-layers.md): the route reads who calls from where and
 * hands the domain a RequestMeta value; server/domain never reads a request.
 */

/**
 * The client's address (docs/decisions/013-abuse-limits.md): the socket peer (@hono/node-server's
 * getConnInfo); X-Forwarded-For only when that peer is a trusted proxy (TRUST_PROXY, see
 * server/http/trust-proxy.ts), read from the right so a client cannot forge it. Null without a
 * socket (app.request() in tests, unless the test passes `{ incoming: { socket } }` as the env).
 */
export function clientIp(c: Context, trustProxy: TrustProxy): string | null {
  let peer: string | null;
  try {
    peer = normalizeIp(getConnInfo(c).remote.address);
  } catch {
    peer = null; // no socket (app.request in tests)
  }
  return forwardedClient(trustProxy, peer, c.req.header('x-forwarded-for'), normalizeIp);
}

export function requestMeta(c: Context, trustProxy: TrustProxy): RequestMeta {
  const ua = c.req.header('user-agent');
  return { ipAddress: clientIp(c, trustProxy), userAgent: ua ? ua.slice(0, 512) : null };
}
