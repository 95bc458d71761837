import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { compress } from 'hono/compress';
import { API_BASE, type App } from './app';
import { CSP_DIRECTIVES } from './http/security-headers';

/**
 * The Content-Security-Policy of a page with inline scripts: the app's policy with each script
 * allowed by its SHA-256 hash (CSP level 2), nothing else inline. The prerendered sign-in page has one
 * (decision 061): it keeps what a person does before the app's JavaScript has arrived.
 */
function cspWithInlineScripts(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '', 'utf8')
        .digest('base64')}'`,
  );
  const directives = { ...CSP_DIRECTIVES, scriptSrc: [...CSP_DIRECTIVES.scriptSrc, ...hashes] };
  return Object.entries(directives)
    .map(([name, values]) => `${name.replace(/[A-Z]/g, (l) => `-${l.toLowerCase()}`)} ${values.join(' ')}`)
    .join('; ');
}

/** Cache-Control for a file of the built SPA: hashed names are immutable, the rest revalidated. */
export function spaCacheControl(path: string): string {
  const hashed = path.startsWith('/assets/') || /^\/workbox-[\w-]+\.js$/.test(path);
  return hashed ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Serves the built SPA from `spaDir` beside the API: hashed assets cached for a year, everything else
 * revalidated; history fallback to index.html. The service worker (/sw.js), its manifest and
 * index.html are always revalidated, so a deploy is seen at the next check (decision 008); the workbox
 * runtime beside sw.js has a hash in its name. The security headers (CSP, ...) come from createApp.
 */
export function mountSpa(app: App, spaDir: string) {
  const hasSpa = existsSync(join(spaDir, 'index.html'));
  const indexHtml = hasSpa ? readFileSync(join(spaDir, 'index.html'), 'utf8') : null;
  // `/` gets the build's prerendered sign-in screen when it has one (decision 021); every other
  // route, and the service worker's offline shell, the plain index.html.
  const signInPath = join(spaDir, 'sign-in.html');
  const signInHtml = hasSpa && existsSync(signInPath) ? readFileSync(signInPath, 'utf8') : null;
  app.use('*', async (c, next) => {
    await next();
    // The API and the probes set their own (no-store).
    if (c.req.path.startsWith(`${API_BASE}/`) || !c.res.ok || c.res.headers.has('Cache-Control')) return;
    c.res.headers.set('Cache-Control', spaCacheControl(c.req.path));
    // Every file of the SPA may go compressed or not by the request's Accept-Encoding (the
    // precompressed copies below, or compress()): a shared cache must key on it, plain answers too.
    if (!/accept-encoding/i.test(c.res.headers.get('Vary') ?? ''))
      c.res.headers.append('Vary', 'Accept-Encoding');
  });
  // The SPA's text files go gzip/deflate-compressed (the API answers stay as they are): the
  // sign-in screen's JavaScript is measured in gzip bytes (issue 7, docs/performance.md).
  const compressSpa = compress();
  app.use('*', (c, next) => (c.req.path.startsWith(`${API_BASE}/`) ? next() : compressSpa(c, next)));
  const signInCsp = signInHtml ? cspWithInlineScripts(signInHtml) : null;
  if (signInHtml && signInCsp)
    app.get('/', (c) => c.html(signInHtml, 200, { 'Content-Security-Policy': signInCsp }));
  // The build's brotli and gzip copies (vite.config.ts, decision 061) when the browser takes them;
  // compress() leaves an answer that already has a Content-Encoding as it is.
  if (hasSpa) app.use('*', serveStatic({ root: spaDir, precompressed: true }));
  app.get('*', (c) => {
    const path = c.req.path;
    // Every path under /api (any version) is the API's: an unknown one is the JSON 404, never the SPA.
    if (path === '/api' || path.startsWith('/api/') || /\.[a-z0-9]+$/i.test(path)) return c.notFound();
    if (!indexHtml) return c.text('The SPA is not built. Run `npm run build`.', 503);
    return c.html(indexHtml);
  });
}
