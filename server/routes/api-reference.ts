import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import { ApiError } from '../errors';
import type { RouteContext } from '../http/context';
import { routeSet } from '../http/route';
import { openApiJson } from '../openapi';
import type { AppEnv } from '../types';

/** The browsable API reference (Swagger UI from the swagger-ui-dist package, served by this server). */
export const API_REFERENCE_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/v1/openapi.json';

/** GET /api/v1/openapi.json: the OpenAPI 3.1 document, generated from the contract (not enveloped). */
export function openApiRoutes(ctx: RouteContext) {
  return routeSet(ctx.guards).on('GET /openapi.json', (c) =>
    c.body(openApiJson(), 200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-cache',
    }),
  ).router;
}

/**
 * The page's own script: no inline script anywhere, so the page runs under a Content-Security-Policy
 * whose script-src is 'self' alone. No validator badge (it would call another host), no token kept
 * in localStorage.
 */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${OPENAPI_PATH}',
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: false,
    displayOperationId: false,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reward Club Admin API reference</title>
<link rel="icon" type="image/png" href="${API_REFERENCE_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<main id="reference"></main>
<script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_REFERENCE_PATH}/init.js"></script>
</body>
</html>
`;

/**
 * Scripts only from this server (no 'unsafe-inline', no eval); Swagger UI sets inline styles and
 * data: images; requests only to this server (its 'Try it out').
 */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page loads (a whitelist: nothing else of node_modules is reachable). */
const PACKAGE_FILES = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

const fileCache = new Map<string, Uint8Array<ArrayBuffer>>();
const packageFile = (name: string): Uint8Array<ArrayBuffer> => {
  let bytes = fileCache.get(name);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(join(swaggerUiDir, name)));
    fileCache.set(name, bytes);
  }
  return bytes;
};

/** GET /api/docs (the page), /api/docs/init.js and the package's files. */
export function apiReferenceRoutes() {
  const headers = (type: string) => ({
    'Content-Type': type,
    'Content-Security-Policy': API_REFERENCE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
  return new Hono<AppEnv>()
    .get('/', (c) => c.body(PAGE, 200, headers('text/html; charset=utf-8')))
    .get('/init.js', (c) => c.body(INIT_SCRIPT, 200, headers('text/javascript; charset=utf-8')))
    .get('/:file', (c) => {
      const type = PACKAGE_FILES.get(c.req.param('file'));
      if (!type) throw new ApiError(404, 'Not found');
      return c.body(packageFile(c.req.param('file')), 200, headers(type));
    });
}
