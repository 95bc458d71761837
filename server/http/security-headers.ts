import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { isTrustedProxy, socketPeer, type TrustProxy } from './trust-proxy';

/**
 * The response headers every answer of the server carries: the SPA's files, the API, and any page the
 * server renders (docs/decisions/015-headers-faults-supply-chain.md).
 *
 * The Content-Security-Policy is strict: scripts, styles, fonts and workers only from this origin and
 * never inline (the built index.html loads one module file, the service worker is registered from
 * that bundle, Panda's styles are a CSS file). Images also from `data:`/`blob:` URLs (an image chosen
 * in a form is previewed before upload). No plugins, no framing, forms post only here.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  manifestSrc: ["'self'"],
  workerSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
} satisfies Record<string, string[]>;

/** The policy as the header carries it (tests compare against it). */
export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, values]) => `${name.replace(/[A-Z]/g, (l) => `-${l.toLowerCase()}`)} ${values.join(' ')}`)
  .join('; ');

/** Two years, subdomains included: sent only on answers that went out over HTTPS. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * Whether the client reached us over HTTPS: a TLS socket (the request URL is https), or, only when the
 * server sits behind a trusted proxy (TRUST_PROXY), the proxy's `X-Forwarded-Proto`. Without a trusted
 * proxy the header is the client's own word and is ignored. When the header lists several values, the
 * last is the one our proxy added (the earlier ones could come from the client), as for the client
 * address in X-Forwarded-For (server/domain/events.ts).
 */
export function servedOverHttps(c: Context, trustProxy: TrustProxy): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (!trustProxy) return false;
  if (trustProxy !== true && !isTrustedProxy(trustProxy, socketPeer(c))) return false;
  const forwarded = c.req.header('x-forwarded-proto');
  return forwarded?.split(',').at(-1)?.trim().toLowerCase() === 'https';
}

export function securityHeaders(o: { trustProxy: TrustProxy }): MiddlewareHandler {
  const base = secureHeaders({
    contentSecurityPolicy: CSP_DIRECTIVES,
    // HSTS over plain HTTP is ignored by browsers and says nothing true: set below when HTTPS.
    strictTransportSecurity: false,
    // A page that sets a policy of its own (stricter, or with its own hashes) keeps it.
    overwrite: false,
  });
  return async (c, next) => {
    await base(c, async () => {
      await next();
      if (servedOverHttps(c, o.trustProxy)) c.res.headers.set('Strict-Transport-Security', HSTS);
    });
  };
}
