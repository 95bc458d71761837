import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import {
  type ApiAccess,
  type ApiEndpoint,
  type ApiErrorStatus,
  apiEndpoints,
  apiHeaderSchemas,
  apiSchemas,
} from '../contract/api';
import { ERROR_CODES, envelopeSchema, errorEnvelopeSchema } from '../contract/envelope';
import { PAGE_SIZES, pageSizeField } from '../contract/list';
import { examplesOf } from './api-examples';
import { webhookOperations } from './openapi-webhooks';

/** Where the API lives, relative to the server (the document's `servers`). */
const API_BASE = '/api/v1';

/** A Hono route path (`/api/v1/admin/partners/:partnerId{[0-9]+}`) in OpenAPI form (`/admin/partners/{partnerId}`). */
export const toOpenApiPath = (honoPath: string): string =>
  (honoPath.startsWith(API_BASE) ? honoPath.slice(API_BASE.length) : honoPath).replace(
    /:([A-Za-z_][A-Za-z0-9_]*)(\{[^}]*\})?/g,
    '{$1}',
  ) || '/';

/** The permissions an access names (empty for public and authenticated). */
export const permissionsOfAccess = (access: ApiAccess): string[] =>
  Array.isArray(access) ? [...access] : [];

const errorDescriptions: Record<ApiErrorStatus, { id: string; description: string }> = {
  400: {
    id: 'BadRequest',
    description:
      "Validation failed: `message` is 'Validation failed' (or 'Invalid JSON body') and `errors` names each field (`fieldName` is the dotted path, e.g. `items.0.price`). Nothing was changed.",
  },
  401: {
    id: 'Unauthorized',
    description:
      'No bearer token, or an invalid or expired one (or a revoked session). Refresh the token with POST /auth/refresh-token and retry once.',
  },
  403: { id: 'Forbidden', description: "The signed-in user's role lacks the permission this call needs." },
  404: {
    id: 'NotFound',
    description:
      "No such record, or it is outside the caller's partner (partner staff never learn whether another partner's record exists).",
  },
  409: {
    id: 'Conflict',
    description:
      'The request conflicts with the current state: a duplicate (name or email taken), a record still in use, a stale `If-Match` (then `data` holds the current record), or a request with the same `Idempotency-Key` still in progress.',
  },
  413: {
    id: 'PayloadTooLarge',
    description:
      'The body is over its limit: 1 MiB, or 8 MiB for calls carrying a base64 image (5 MiB decoded).',
  },
  422: {
    id: 'UnprocessableEntity',
    description: 'This `Idempotency-Key` was already used with a different request.',
  },
  429: {
    id: 'TooManyRequests',
    description:
      'Too many attempts (sign-in failures, wrong codes, codes sent). Wait for `Retry-After` seconds.',
  },
  503: {
    id: 'ServiceUnavailable',
    description:
      'Temporarily unavailable: the database cannot be reached (any call may answer this), or a code could not be mailed. Nothing was changed; try again.',
  },
};

/**
 * Classic zod's `.meta()` for any schema (the contract's are zod/mini, which has no such method): a
 * clone of the schema with the metadata in the global registry, which the document generator reads.
 */
const withMeta = <T extends z.core.$ZodType>(schema: T, meta: z.core.GlobalMeta): T => {
  const copy = z.core.clone(schema);
  z.globalRegistry.add(copy, meta);
  return copy;
};

// `pageSize` takes only these values (a string in the query, read as a number): documented as the enum.
z.globalRegistry.add(pageSizeField, {
  override: { type: 'integer', enum: [...PAGE_SIZES] },
} as z.core.GlobalMeta);

const errorEnvelope = withMeta(errorEnvelopeSchema(z.null()), {
  id: 'ErrorEnvelope',
  description:
    'A failure: `success` is false, `code` is the stable machine-readable reason (branch on it), `message` says why for people, `errors` lists field-level problems.',
});
const conflictEnvelope = withMeta(errorEnvelopeSchema(z.unknown()), {
  id: 'ConflictEnvelope',
  description: 'A conflict: like ErrorEnvelope, but a stale edit carries the current record in `data`.',
});

const errorResponses = Object.fromEntries(
  (Object.entries(errorDescriptions) as [string, { id: string; description: string }][]).map(
    ([status, { id, description }]) => [
      status,
      {
        id,
        description,
        ...(status === '429' || status === '503'
          ? { headers: z.object({ 'Retry-After': z.string().meta({ description: 'Seconds to wait' }) }) }
          : {}),
        content: { 'application/json': { schema: status === '409' ? conflictEnvelope : errorEnvelope } },
      },
    ],
  ),
);

/** The error statuses an endpoint can answer: derived from its shape, plus those it names. */
export function errorStatusesOf(e: ApiEndpoint): ApiErrorStatus[] {
  const out = new Set<ApiErrorStatus>(e.errors ?? []);
  if (e.params || e.query || e.body || e.headers?.length) out.add(400);
  if (e.access !== 'public') out.add(401);
  if (Array.isArray(e.access)) out.add(403);
  if (e.params) out.add(404);
  if (e.body) out.add(413);
  return [...out].sort((a, b) => a - b);
}

const operationId = (e: ApiEndpoint) =>
  e.method +
  e.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

function accessText(access: ApiAccess): string {
  if (access === 'public') return 'Public: no token needed.';
  if (access === 'authenticated') return 'Any signed-in user (bearer token).';
  return access.length === 1
    ? `Needs the permission \`${access[0]}\`.`
    : `Needs any one of the permissions ${access.map((p) => `\`${p}\``).join(', ')}.`;
}

function operation(e: ApiEndpoint): ZodOpenApiOperationObject {
  const status = String(e.status ?? 200);
  const examples = examplesOf(e);
  const success = e.raw
    ? {
        description: e.raw.description,
        content: {
          [e.raw.contentType]: {
            schema: e.raw.contentType.startsWith('image/')
              ? { type: 'string', format: 'binary' }
              : e.raw.contentType.startsWith('text/')
                ? { type: 'string' }
                : { type: 'object' },
          },
        },
      }
    : {
        description: 'Success: the envelope with `success` true and the result in `data`.',
        content: {
          'application/json': {
            schema: envelopeSchema(e.data),
            ...(examples.data !== undefined
              ? { example: { success: true, data: examples.data, message: 'OK', errors: [] } }
              : {}),
          },
        },
      };
  const headers = e.headers?.length
    ? z.object(Object.fromEntries(e.headers.map((h) => [h, apiHeaderSchemas[h].optional()])))
    : undefined;
  const requestParams = {
    ...(e.params ? { path: e.params } : {}),
    ...(e.query ? { query: e.query } : {}),
    ...(headers ? { header: headers } : {}),
  };
  return {
    operationId: operationId(e),
    tags: [e.tag],
    summary: e.summary,
    description: [e.description, accessText(e.access)].filter(Boolean).join('\n\n'),
    security:
      e.access === 'public' ? [] : e.apiKey ? [{ bearerAuth: [] }, { ApiKey: [] }] : [{ bearerAuth: [] }],
    'x-access': e.access === 'public' || e.access === 'authenticated' ? e.access : 'permission',
    'x-permissions': permissionsOfAccess(e.access),
    'x-scope': e.scope,
    ...(Object.keys(requestParams).length ? { requestParams } : {}),
    ...(e.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: e.body,
                ...(examples.body !== undefined ? { example: examples.body } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [status]: success,
      ...Object.fromEntries(errorStatusesOf(e).map((s) => [String(s), errorResponses[String(s)]!])),
    },
  } as ZodOpenApiOperationObject;
}

const DESCRIPTION = `The API of Reward Club Admin, generated from the zod schemas in \`contract/\` that the server validates with.

**Envelope.** Every answer (but files and this document) is JSON of the shape
\`{ "success": boolean, "data": ..., "message": string, "errors": [{ "fieldName": string, "message": string }] }\`.
Lists answer \`data.records\` and \`data.meta\` (\`totalCount\`, \`pageNumber\`, \`pageSize\`) and take
\`pageNumber\` (from 1), \`pageSize\` (10, 20, 50 or 100), \`searchText\`, \`sortBy\`, \`sortOrder\`, \`startDate\`, \`endDate\`.

**Auth.** Sign in with POST /admin/auth/login, then send \`Authorization: Bearer <accessToken>\`.
The access token lives 15 minutes; POST /auth/refresh-token exchanges the refresh token (rotated on every use) for a new pair.
Each call names the permission it needs (\`x-permissions\`); a missing token is 401, a missing permission 403.
Each call names its scope (\`x-scope\`): \`club\` calls refuse partner staff (403) whatever their role holds; \`partner\` calls
confine partner staff to their own partner (another partner's id or data is 404); \`self\` is the caller's own account.

**Error codes.** Every failure carries a stable \`code\`: ${ERROR_CODES.map((c) => `\`${c}\``).join(', ')}.
Branch on \`code\`, not on \`message\` (which is for people and may be reworded).

**Errors.** 400 validation (per-field \`errors\`), 401 unauthenticated, 403 forbidden, 404 not found (or outside the caller's partner),
409 conflict, 413 body too large, 422 Idempotency-Key reused with another body, 429 rate limited (with \`Retry-After\`),
503 when the database cannot be reached (with \`Retry-After\`; GET /health says so too). Bad input never causes a 500.

**Retries.** Calls that move money or edit records take an optional \`Idempotency-Key\`; edits take \`If-Match\` to refuse a stale write with 409.`;

export function buildOpenApiDocument(endpoints: readonly ApiEndpoint[] = apiEndpoints) {
  const paths: ZodOpenApiPathsObject = {};
  for (const e of endpoints) {
    paths[e.path] ??= {};
    (paths[e.path] as Record<string, ZodOpenApiOperationObject>)[e.method] = operation(e);
  }
  const tags = [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name }));
  return createDocument(
    {
      openapi: '3.1.0',
      info: { title: 'Reward Club Admin API', version: '1', description: DESCRIPTION },
      servers: [{ url: API_BASE }],
      tags,
      security: [{ bearerAuth: [] }],
      webhooks: webhookOperations(),
      components: {
        schemas: apiSchemas,
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The `accessToken` from POST /admin/auth/login (15 minutes).',
          },
          ApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description:
              'A partner API key `rck_<prefix>_<secret>` (POST /admin/partners/{partnerId}/api-keys, or the partner page\'s Integrations tab): the call acts as that partner with the permissions chosen for the key, on the partner routes that declare this scheme only (another partner: 404; club-wide or personal routes: 403/401). An unknown, revoked or malformed key, or one of a deleted partner, is a 401 `unauthenticated`. At most 600 calls a minute per key: every answer carries `RateLimit-Policy: "api-key";q=600;w=60` and `RateLimit`; over it, 429 `rate_limited` with `Retry-After`.',
          },
        },
      },
      paths,
    },
    {
      // Answers are not stripped to their schema on the way out: an extra field may appear, so output
      // objects stay open (zod renders them closed). Request bodies keep what their schema says.
      override: ({ jsonSchema, io }) => {
        if (io === 'output' && jsonSchema.additionalProperties === false)
          delete jsonSchema.additionalProperties;
      },
    },
  );
}

let cached: string | null = null;

/** The document as JSON text, built once per process. */
export const openApiJson = (): string => {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return cached;
};
