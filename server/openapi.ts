import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import {
  type ApiAccess,
  type ApiEndpoint,
  type ApiErrorStatus,
  apiEndpoints,
  apiHeaderSchemas,
  apiKeyKind,
  apiSchemas,
} from '../contract/api';
import { envelopeSchema, errorCodeOfStatus, errorEnvelopeSchema } from '../contract/envelope';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode, statusOfCode } from '../contract/error-codes';
import { PAGE_SIZES, pageSizeField } from '../contract/list';
import { csvExampleOf, examplesOf, jsonFile } from './api-examples';
import { LINK_DAILY_CAP } from './domain/customer-links';
import { OTP_DAILY_CAP, OTP_MAX_ATTEMPTS } from './domain/otp';
import {
  API_KEY_LIMIT,
  CLUB_KEY_LIMIT,
  humanDuration,
  LOGIN_IP_LIMIT,
  LOGIN_LIMIT,
  OTP_GUESS_IP_LIMIT,
  OTP_GUESS_LIMIT,
  OTP_SEND_IP_LIMIT,
  OTP_SEND_LIMIT,
  type RateLimit,
} from './domain/rate-limit';
import { ERROR_EXAMPLES, PARTNER_BLOCKED_403 } from './error-examples';
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

/** What each error status means; the codes it carries say precisely why (listed per answer). */
const errorDescriptions: Record<ApiErrorStatus, string> = {
  400: 'Refused before anything changed: `errors` names each field at fault (`fieldName` is the dotted path, e.g. `items.0.price`).',
  401: 'No bearer token or API key, or an invalid, expired or revoked one. Refresh the token with POST /auth/refresh-token and retry once.',
  403: 'The caller may not do this (a permission, a blocked partner, a customer not linked).',
  404: "No such record, or it is outside the caller's partner (partner staff never learn whether another partner's record exists).",
  409: 'The request conflicts with the current state; a stale `If-Match` carries the current record in `data`.',
  413: 'The body is over its limit: 1 MiB, or 8 MiB for calls carrying a base64 image (5 MiB decoded).',
  422: 'This `Idempotency-Key` was already used (within 24 hours) with a different request.',
  429: 'A limit was reached: wait `Retry-After` seconds. The `RateLimit` field shows the tightest limit of the call before it is reached.',
  503: 'Temporarily unavailable (the database cannot be reached: any call may answer this; or a code could not be mailed). Nothing was changed; retry after `Retry-After` seconds.',
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

/** The generic code of each documentable error status (contract/envelope.ts errorCodeOfStatus). */
const statusCode = (status: ApiErrorStatus): ErrorCode => errorCodeOfStatus(status);

/**
 * The codes each error status of an endpoint carries (decision 063): those its shape implies (a body
 * can be invalid, a key can be over its limit, an Idempotency-Key in progress or reused, a partner
 * call may meet a blocked partner, a customer an unlinked one), plus those it declares (`codes`),
 * plus the generic code of a status in `errors` that nothing else names.
 */
export function errorCodesOf(e: ApiEndpoint): Map<ApiErrorStatus, ErrorCode[]> {
  const out = new Map<ApiErrorStatus, ErrorCode[]>();
  const add = (status: ApiErrorStatus, code: ErrorCode) => {
    const list = out.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    out.set(status, list);
  };
  if (e.params || e.query || e.body || e.headers?.length) add(400, 'validation_failed');
  if (e.body) add(400, 'invalid_json');
  if (e.access !== 'public') add(401, 'unauthenticated');
  if (Array.isArray(e.access)) add(403, 'forbidden');
  if (e.customer) add(403, 'customer_not_linked');
  // A blocked partner's staff and keys read only (server/http/access.ts enforceScope).
  if (e.scope === 'partner' && (e.method !== 'get' || e.path.endsWith('/export')))
    add(403, 'partner_blocked');
  if (e.params) add(404, 'not_found');
  if (e.headers?.includes('If-Match')) add(409, 'version_conflict');
  if (e.headers?.includes('Idempotency-Key')) {
    add(409, 'idempotency_in_progress');
    add(422, 'idempotency_key_reused');
  }
  if (e.body || e.rawBody) add(413, 'payload_too_large');
  // Every call with an API key counts against the key's limit.
  if (apiKeyKind(e)) add(429, 'rate_limited');
  for (const code of e.codes ?? []) add(statusOfCode(code) as ApiErrorStatus, code);
  for (const status of e.errors ?? []) if (!out.has(status)) add(status, statusCode(status));
  return new Map([...out].sort(([a], [b]) => a - b));
}

/** The error statuses an endpoint can answer: those its codes come with. */
export function errorStatusesOf(e: ApiEndpoint): ApiErrorStatus[] {
  return [...errorCodesOf(e).keys()];
}

/** One documented error answer: the status's words, the codes it carries, an example of each. */
function errorResponse(status: ApiErrorStatus, codes: readonly ErrorCode[]) {
  const description = errorDescriptions[status];
  const example = (code: ErrorCode) => {
    const given = status === 403 && code === 'partner_blocked' ? PARTNER_BLOCKED_403 : ERROR_EXAMPLES[code];
    return {
      success: false,
      data: given.data ?? null,
      message: given.message,
      code,
      errors: given.errors ?? [],
    };
  };
  return {
    description: `${description}\n\n\`code\`: ${codes
      .map((c) => `\`${c}\` (${ERROR_CATALOGUE[c].meaning.replace(/\.$/, '')})`)
      .join('; ')}.`,
    'x-error-codes': [...codes],
    ...(status === 429 || status === 503
      ? {
          headers: z.object({
            'Retry-After': z.string().meta({ description: 'Seconds to wait', example: '120' }),
          }),
        }
      : {}),
    content: {
      'application/json': {
        schema: status === 409 ? conflictEnvelope : errorEnvelope,
        examples: Object.fromEntries(
          codes.map((c) => [c, { summary: ERROR_CATALOGUE[c].meaning, value: example(c) }]),
        ),
      },
    },
  };
}

/** The catalogue as a table for the reference's front page. */
const catalogueTable = (): string =>
  [
    '| `code` | status | meaning | what to do |',
    '| --- | --- | --- | --- |',
    ...ERROR_CODES.map((c) => {
      const e = ERROR_CATALOGUE[c];
      return `| \`${c}\` | ${e.statuses.join(', ')} | ${e.meaning} | ${e.action} |`;
    }),
  ].join('\n');

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
  const csvExample = csvExampleOf(e);
  const success = e.raw
    ? jsonFile(e)
      ? {
          description: e.raw.description,
          content: {
            'application/json': {
              schema: e.data,
              ...(examples.data !== undefined ? { example: examples.data } : {}),
            },
          },
        }
      : {
          description: e.raw.description,
          content: {
            [e.raw.contentType]: {
              schema: e.raw.contentType.startsWith('image/')
                ? { type: 'string', format: 'binary' }
                : e.raw.contentType.startsWith('text/')
                  ? { type: 'string' }
                  : { type: 'object' },
              ...(csvExample !== undefined ? { example: csvExample } : {}),
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
      e.access === 'public'
        ? []
        : apiKeyKind(e)
          ? [{ bearerAuth: [] }, { ApiKey: [] }]
          : [{ bearerAuth: [] }],
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
    ...(e.rawBody
      ? {
          requestBody: {
            required: true,
            description: e.rawBody.description,
            content: Object.fromEntries(
              e.rawBody.contentTypes.map((t) => [t, { schema: { type: 'string' } }]),
            ),
          },
        }
      : {}),
    responses: {
      [status]: success,
      ...(e.accepted
        ? {
            '202': {
              description: e.accepted.description,
              content: { 'application/json': { schema: envelopeSchema(e.accepted.data) } },
            },
          }
        : {}),
      ...Object.fromEntries([...errorCodesOf(e)].map(([s, codes]) => [String(s), errorResponse(s, codes)])),
    },
  } as ZodOpenApiOperationObject;
}

/** Every limit a caller can meet, for the reference's front page (the numbers are the server's). */
const limitsTable = (): string => {
  const per = (r: RateLimit) => `${r.limit} per ${humanDuration(r.windowMs / 1000)}`;
  return [
    '| policy | limit | counted per | on |',
    '| --- | --- | --- | --- |',
    `| \`api-key\` | ${per(API_KEY_LIMIT)} | partner API key | every call with the key (\`rate_limited\`) |`,
    `| \`club-key\` | ${per(CLUB_KEY_LIMIT)} | club integration key | every call with the key (\`rate_limited\`) |`,
    `| \`login\`, \`login-ip\` | ${per(LOGIN_LIMIT)}; ${per(LOGIN_IP_LIMIT)} | email; client address | failed sign-ins (\`rate_limited\`) |`,
    `| \`otp-send\`, \`otp-send-ip\` | ${per(OTP_SEND_LIMIT)}; ${per(OTP_SEND_IP_LIMIT)} | caller; client address | redemption and link codes sent (\`rate_limited\`) |`,
    `| \`otp-reward-day\` | ${OTP_DAILY_CAP} per 24 hours | reward | redemption codes sent (\`otp_daily_cap\`) |`,
    `| \`otp-guess\`, \`otp-guess-ip\` | ${per(OTP_GUESS_LIMIT)}; ${per(OTP_GUESS_IP_LIMIT)} | caller; client address | wrong redemption and link codes (\`rate_limited\`) |`,
    `| (per code) | ${OTP_MAX_ATTEMPTS} wrong tries | code | then the code is dead (\`otp_locked\`): send a new one |`,
    `| (per customer) | ${LINK_DAILY_CAP} link codes per 24 hours | partner and customer | link requests (\`link_daily_cap\`) |`,
  ].join('\n');
};

const DESCRIPTION = `The API of Reward Club Admin, generated from the zod schemas in \`contract/\` that the server validates with.

**Envelope.** Every answer (but files and this document) is JSON of the shape
\`{ "success": boolean, "data": ..., "message": string, "errors": [{ "fieldName": string, "message": string }] }\`.
Lists answer \`data.records\` and \`data.meta\` (\`totalCount\`, \`pageNumber\`, \`pageSize\`) and take
\`pageNumber\` (from 1), \`pageSize\` (10, 20, 50 or 100), \`searchText\`, \`sortBy\`, \`sortOrder\`, \`startDate\`, \`endDate\`.

**Money and days.** Amounts are naira as JSON numbers with at most two decimals (kobo); there is no currency
field. Instants are ISO 8601 in UTC. A day is a calendar day in Lagos (Africa/Lagos, UTC+1, no daylight saving):
\`startDate\` and \`endDate\` (YYYY-MM-DD) take whole Lagos days, both inclusive; a reward's \`expiryDate\`
(YYYY-MM-DD) holds until 23:59:59.999 Lagos time that day; eligibility windows and weekly figures count Lagos days.

**Auth.** Sign in with POST /admin/auth/login, then send \`Authorization: Bearer <accessToken>\`.
The access token lives 15 minutes; POST /auth/refresh-token exchanges the refresh token (rotated on every use) for a new pair.
Each call names the permission it needs (\`x-permissions\`); a missing token is 401, a missing permission 403.
Each call names its scope (\`x-scope\`): \`club\` calls refuse partner staff (403) whatever their role holds; \`partner\` calls
confine partner staff to their own partner (another partner's id or data is 404); \`self\` is the caller's own account.

**Error codes.** Every failure carries a stable \`code\`, one per distinct refusal. Branch on \`code\`, not on
\`message\` (which is for people and may be reworded). Every error answer of every operation below lists the codes
it carries, with an example of each. The catalogue:

${catalogueTable()}

**Errors.** 400 validation (per-field \`errors\`), 401 unauthenticated, 403 forbidden, 404 not found (or outside the caller's partner),
409 conflict, 413 body too large, 422 Idempotency-Key reused with another body, 429 rate limited (with \`Retry-After\`),
503 when the database cannot be reached (with \`Retry-After\`; GET /health says so too). Bad input never causes a 500.

**Retries.** Calls that move money or edit records take an optional \`Idempotency-Key\`: a repeat with the same key within
24 hours returns the first answer (\`Idempotent-Replayed: true\`); after 24 hours the key is forgotten and a repeat runs anew.
Edits take \`If-Match\` to refuse a stale write with 409.

**Limits.** Every limit a caller can meet answers 429 with \`Retry-After\` when reached, and shows before that in the IETF
fields \`RateLimit-Policy\` (each policy: quota \`q\`, window \`w\` in seconds) and \`RateLimit\` (left \`r\`, seconds until
one frees \`t\`), the tightest (fewest left) first when several apply. A caller is a staff member or an API key.

${limitsTable()}`;

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
