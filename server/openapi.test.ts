import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApiAccess, type ApiEndpoint, type ApiScope, apiEndpoints, apiKeyKind } from '../contract/api';
import { envelopeSchema } from '../contract/envelope';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from '../contract/error-codes';
import { WEBHOOK_EVENT_TYPES, webhookMessageSchema } from '../contract/webhooks';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createReward,
  createSuperAdmin,
  createVisit,
  setupTestServer,
  signIn,
} from '../tests/setup/server';
import { routeAccess, routeSchemas } from './app';
import { buildOpenApiDocument, errorStatusesOf, permissionsOfAccess, toOpenApiPath } from './openapi';

/**
 * The API reference is generated from contract/api.ts; these tests hold it to the router: every
 * mounted route documented and nothing else, the access each route enforces, the very schemas its
 * validators use, the fields the server asks for, and answers that parse with the documented schemas.
 */
const t = setupTestServer();
let token: string;
let superAdminId: number;
let partnerId: number;
let customerId: number;

type Operation = {
  security?: Record<string, string[]>[];
  'x-permissions'?: string[];
  'x-access'?: string;
  'x-scope'?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: object } }> };
  responses: Record<
    string,
    {
      description?: string;
      content?: Record<string, { schema?: unknown }>;
      headers?: Record<string, unknown>;
      'x-error-codes'?: string[];
    }
  >;
};
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme: string }>;
  };
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const endpointKey = (e: ApiEndpoint) => key(e.method, e.path);
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Doc;
const documentedOps = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((m) => METHODS.includes(m))
    .map((m) => ({ key: key(m, path), op: item[m]! })),
);
const endpointByKey = new Map(apiEndpoints.map((e) => [endpointKey(e), e]));

beforeAll(async () => {
  // A little of everything, so each list answers records to check against its schema.
  const service = await createExtendedService(t.db);
  partnerId = (await createPartner(t.db, { serviceIds: [service.id] })).id;
  customerId = (await createCustomer(t.db)).id;
  await createVisit(t.db, { partnerId, customerId, visitDate: t.clock(), amount: 25_000 });
  await createReward(t.db, { partnerId, customerId });
  await createReward(t.db, {
    partnerId,
    customerId,
    rewardType: 'COUPON',
    issuedAmount: null,
    balance: null,
    percentageDiscount: 10,
  });
  const admin = await createSuperAdmin(t.db);
  superAdminId = admin.id;
  token = (await signIn(t, admin.email, 'Sup3rSecret')).accessToken;
});

describe('the OpenAPI document', () => {
  it('is served at GET /api/v1/openapi.json without a token, as generated from the contract', async () => {
    const res = await t.app.request('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await res.json()) as Doc;
    expect(served.openapi).toBe('3.1.0');
    expect(served).toEqual(doc);
  });

  it('is a valid OpenAPI 3.1 document whose every $ref resolves', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    const text = JSON.stringify(doc);
    console.log(
      `[figure] openapi: valid 3.1 document, ${(text.length / 1024).toFixed(0)} KiB, ${documentedOps.flatMap((o) => Object.keys(o.op.responses).filter((st) => Number(st) >= 400)).length} error answers`,
    );
  });

  it('documents every mounted route and no route that is not mounted', () => {
    const mounted = routeAccess(t.app).map((r) => key(r.method, toOpenApiPath(r.path)));
    expect(new Set(mounted).size).toBe(mounted.length);
    const documented = new Set(documentedOps.map((o) => o.key));
    const undocumented = mounted.filter((k) => !documented.has(k));
    const stale = [...documented].filter((k) => !mounted.includes(k));
    console.log(
      `[figure] openapi: ${mounted.length} mounted routes, ${documented.size} documented operations, ${undocumented.length} undocumented, ${stale.length} documented but not mounted`,
    );
    expect(undocumented, 'routes without a documented schema: add them to contract/api.ts').toEqual([]);
    expect(stale, 'documented operations no route serves').toEqual([]);
    expect(apiEndpoints.length).toBe(documented.size);
  });

  it('documents the envelope, bearer auth and the error answers of every operation', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const status of ['400', '401', '403', '404', '409', '413', '422', '429']) {
      const some = documentedOps.flatMap((o) => Object.entries(o.op.responses)).find(([st]) => st === status);
      expect(some, `some operation answers ${status}`).toBeTruthy();
    }
    for (const { key: k, op } of documentedOps) {
      const e = endpointByKey.get(k)!;
      const success = op.responses[String(e.status ?? 200)];
      const media = Object.values(success?.content ?? {});
      expect(media.length, `${k}: success answer`).toBe(1);
      expect(media[0]!.schema, `${k}: success schema`).toBeTruthy();
      if (!e.raw) {
        expect(JSON.stringify(media[0]!.schema), k).toContain('"success"');
        expect(JSON.stringify(media[0]!.schema), k).toContain('"errors"');
      }
      const errors = Object.keys(op.responses)
        .filter((s) => Number(s) >= 400)
        .map(Number);
      expect(errors, k).toEqual(errorStatusesOf(e));
      // Each error answer: the envelope, the codes it carries (all of the catalogue), an example of each.
      for (const st of errors) {
        const answer = op.responses[String(st)]!;
        const media = answer.content?.['application/json'] as
          | { schema: unknown; examples?: Record<string, { value: { code: string; success: boolean } }> }
          | undefined;
        expect(JSON.stringify(media?.schema), `${k} ${st}`).toMatch(/Envelope/);
        const codes = answer['x-error-codes'] ?? [];
        expect(codes.length, `${k} ${st}`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(ERROR_CODES, `${k} ${st}`).toContain(code);
          expect(ERROR_CATALOGUE[code as ErrorCode].statuses, `${k} ${st} ${code}`).toContain(st);
          expect(media?.examples?.[code]?.value, `${k} ${st} ${code}`).toMatchObject({
            success: false,
            code,
          });
          expect(answer.description, `${k} ${st}`).toContain(`\`${code}\``);
        }
        if (st === 429 || st === 503) expect(answer.headers?.['Retry-After'], `${k} ${st}`).toBeTruthy();
      }
      if (e.access === 'public') expect(op.security, k).toEqual([]);
      else if (apiKeyKind(e)) expect(op.security, k).toEqual([{ bearerAuth: [] }, { ApiKey: [] }]);
      else expect(op.security, k).toEqual([{ bearerAuth: [] }]);
    }
  });

  it('has a valid example for at least 90% of request bodies and 95% of success answers (CSV files too)', () => {
    type Media = { example?: unknown };
    type Op = {
      requestBody?: { content: Record<string, Media> };
      responses: Record<string, { content?: Record<string, Media> }>;
    };
    let bodies = 0;
    let bodyExamples = 0;
    let answers = 0;
    let answerExamples = 0;
    const missing: string[] = [];
    for (const e of apiEndpoints) {
      const op = (doc.paths as Record<string, Record<string, Op>>)[e.path]![e.method]!;
      if (e.body) {
        bodies++;
        const example = op.requestBody!.content['application/json']!.example;
        if (example === undefined) missing.push(`body of ${e.method} ${e.path}`);
        else {
          bodyExamples++;
          // What the reference shows is what the server accepts.
          expect(z.safeParse(e.body, example).success, `${e.method} ${e.path}`).toBe(true);
        }
      }
      // Every operation's success answer counts: envelopes, JSON files and CSV files alike.
      answers++;
      const content = op.responses[String(e.status ?? 200)]!.content ?? {};
      const [type, media] = Object.entries(content)[0] ?? [];
      const example = media?.example;
      if (example === undefined) missing.push(`answer of ${e.method} ${e.path}`);
      else {
        answerExamples++;
        if (type === 'text/csv') {
          // A header row and at least one record, in the Windows line endings the server writes.
          expect(example, `${e.method} ${e.path}`).toMatch(/^[^\r\n]+\r\n[^\r\n]+\r\n/);
        } else if (!e.raw) {
          expect(
            z.safeParse(e.data, (example as { data: unknown }).data).success,
            `${e.method} ${e.path}`,
          ).toBe(true);
        } else {
          expect(z.safeParse(e.data, example).success, `${e.method} ${e.path}`).toBe(true);
        }
      }
    }
    const pct = (n: number, of: number) => Math.round((1000 * n) / of) / 10;
    console.log(
      `[figure] openapi examples: request bodies ${bodyExamples}/${bodies} (${pct(bodyExamples, bodies)}%), success answers ${answerExamples}/${answers} (${pct(answerExamples, answers)}%); without: ${missing.join('; ') || 'none'}`,
    );
    expect(bodyExamples / bodies).toBeGreaterThanOrEqual(0.9);
    expect(answerExamples / answers).toBeGreaterThanOrEqual(0.95);
  });

  it('declares the ApiKey scheme on the calls a till makes, and the webhook messages under `webhooks`', () => {
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
    });
    const tillCalls = apiEndpoints
      .filter((e) => apiKeyKind(e) === 'partner')
      .map((e) => `${e.method.toUpperCase()} ${e.path}`);
    expect(tillCalls).toEqual(
      expect.arrayContaining([
        'POST /user/visits',
        'POST /partners/rewards/issue-reward',
        'POST /partners/rewards/redeem-giftcard',
        'POST /partners/rewards/redeem-coupon',
      ]),
    );
    const webhooks = (
      doc as unknown as { webhooks: Record<string, { post: { parameters: { name: string }[] } }> }
    ).webhooks;
    expect(Object.keys(webhooks)).toEqual([
      'visit.recorded',
      'reward.issued',
      'reward.redeemed',
      'reward.reversed',
      // The subscriber sync (issue 27, decision 051) and a customer's links (issue 28, decision 053).
      'customer.created',
      'customer.updated',
      'customer.blocked',
      'customer.linked',
      'customer.unlinked',
      'customer.erased',
      // What a till needs besides (issue 31, decision 065).
      'customer.unblocked',
      'reward.expiring',
      'partner.blocked',
      'partner.unblocked',
      'api_key.revoked',
      'webhook.disabled',
      // A campaign's run ended (issue 35, decision 070).
      'campaign.completed',
      // A flagged visit was decided (issue 35, decision 075).
      'visit.reviewed',
    ]);
    for (const [type, item] of Object.entries(webhooks)) {
      expect(
        item.post.parameters.map((p) => p.name),
        type,
      ).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
    // Each message has an example, and the example is a message of its own schema.
    const bodies = (
      doc as unknown as {
        webhooks: Record<
          string,
          { post: { requestBody: { content: Record<string, { example?: unknown }> } } }
        >;
      }
    ).webhooks;
    for (const type of WEBHOOK_EVENT_TYPES) {
      const example = bodies[type]!.post.requestBody.content['application/json']!.example;
      expect(example, type).toBeDefined();
      const parsed = webhookMessageSchema(type).safeParse(example);
      expect(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('documents the access each route enforces', () => {
    let checked = 0;
    for (const r of routeAccess(t.app)) {
      const e = endpointByKey.get(key(r.method, toOpenApiPath(r.path)));
      if (!e) continue; // undocumented: the test above names it
      const op = doc.paths[e.path]![e.method]!;
      const enforced = r.access?.kind === 'permission' ? 'permission' : (r.access?.kind ?? 'none declared');
      expect(op['x-access'], key(r.method, r.path)).toBe(enforced);
      expect(op['x-permissions'], key(r.method, r.path)).toEqual(
        r.access?.kind === 'permission' ? [...r.access.anyOf] : [],
      );
      expect(permissionsOfAccess(e.access)).toEqual(op['x-permissions']);
      expect(op['x-scope'], `${key(r.method, r.path)} scope`).toBe(r.access?.scope ?? 'none declared');
      checked++;
    }
    expect(checked).toBe(apiEndpoints.length);
  });

  it('documents the ApiKey scheme on exactly the routes a partner API key can call', () => {
    const mismatched: string[] = [];
    let keyRoutes = 0;
    for (const r of routeAccess(t.app)) {
      const e = endpointByKey.get(key(r.method, toOpenApiPath(r.path)));
      if (!e || !r.access) continue;
      // What the guard registered (server/http/access.ts), read back from the router, gives the key
      // rule; the document's security must say the same (decision 056: one declaration per route).
      const guarded: { access: ApiAccess; scope: ApiScope; clubKey?: boolean } = {
        access: r.access.kind === 'permission' ? r.access.anyOf : r.access.kind,
        scope: r.access.scope,
        clubKey: r.access.kind === 'permission' && r.access.clubKey === true,
      };
      const kind = apiKeyKind(guarded);
      if (kind) keyRoutes++;
      if (kind !== apiKeyKind(e))
        mismatched.push(`${endpointKey(e)} (guard: ${kind}, declared: ${apiKeyKind(e)})`);
      const documented = doc.paths[e.path]![e.method]!.security?.some((s) => 'ApiKey' in s) ?? false;
      if ((kind !== undefined) !== documented) mismatched.push(`${endpointKey(e)} (key can call: ${kind})`);
    }
    console.log(`[figure] openapi: ${keyRoutes} routes callable with X-Api-Key, all documented with ApiKey`);
    expect(keyRoutes).toBeGreaterThan(0);
    expect(mismatched).toEqual([]);
  });

  it('documents as request schemas the very objects the routes validate with', () => {
    const counts = { body: 0, query: 0, params: 0 };
    for (const r of routeSchemas(t.app)) {
      const k = key(r.method, toOpenApiPath(r.path));
      const e = endpointByKey.get(k);
      if (!e) continue; // undocumented: the test above names it
      expect(e.body, `${k} body`).toBe(r.schemas.json);
      expect(e.query, `${k} query`).toBe(r.schemas.query);
      expect(e.params, `${k} path parameters`).toBe(r.schemas.param);
      if (e.body) counts.body++;
      if (e.query) counts.query++;
      if (e.params) counts.params++;
      const pathNames = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const documentedPath = (doc.paths[e.path]![e.method]!.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      expect(documentedPath, `${k} path parameters`).toEqual(pathNames);
    }
    console.log(
      `[figure] openapi: request schemas identical to the validators': ${counts.body} bodies, ${counts.query} queries, ${counts.params} path parameter sets`,
    );
    expect(counts.body + counts.query + counts.params).toBeGreaterThan(40);
  });

  it('names as required the very fields the server asks for when they are missing', async () => {
    let bodies = 0;
    let queries = 0;
    for (const e of apiEndpoints) {
      const op = doc.paths[e.path]![e.method]!;
      const path = e.path.replace(/\{(\w+)\}/g, '999999');
      if (e.body) {
        const required = op.requestBody?.content['application/json']?.schema.required ?? [];
        if (required.length === 0) continue;
        const res = await t.request(e.method.toUpperCase(), path, { json: {}, token });
        expect(res.status, `${endpointKey(e)} with {}`).toBe(400);
        const fields = res.body.errors.map((x) => x.fieldName).sort();
        expect(fields, `${endpointKey(e)}: fields the server asks for`).toEqual([...required].sort());
        bodies++;
      } else if (e.query) {
        const required = (op.parameters ?? [])
          .filter((p) => p.in === 'query' && p.required)
          .map((p) => p.name);
        if (required.length === 0) continue;
        const res = await t.request(e.method.toUpperCase(), path, { token });
        expect(res.status, `${endpointKey(e)} without a query`).toBe(400);
        const fields = res.body.errors.map((x) => x.fieldName).sort();
        expect(fields, `${endpointKey(e)}: fields the server asks for`).toEqual([...required].sort());
        queries++;
      }
    }
    console.log(
      `[figure] openapi: required fields match the server's 400s on ${bodies} bodies, ${queries} queries`,
    );
    expect(bodies).toBeGreaterThan(15);
  });

  it('answers, on a little data, what the documented response schemas describe', async () => {
    const queries: Record<string, string> = {
      '/admin/user/admin-detail': `?userId=${superAdminId}`,
      '/admin/user/get-role-detail': '?roleId=1',
      '/admin/partners/stats/partner': `?partnerId=${partnerId}`,
      '/admin/partners/stats/partner/weekly': `?partnerId=${partnerId}`,
      '/admin/partners/visits': `?partnerId=${partnerId}`,
      '/admin/partners/visits/reward-eligible-users': `?partnerId=${partnerId}`,
      '/admin/partners/visits/eligible-users-bypoints': `?partnerId=${partnerId}`,
      '/admin/partners/rewards': `?partnerId=${partnerId}`,
      '/partners/rewards/customers': `?partnerId=${partnerId}`,
      '/partners/visits/customers': `?partnerId=${partnerId}`,
      '/user/internet/client_info': `?client_id=${customerId}`,
    };
    let checked = 0;
    let records = 0;
    for (const e of apiEndpoints) {
      if (e.method !== 'get' || e.params || e.raw) continue;
      const res = await t.request('GET', `${e.path}${queries[e.path] ?? ''}`, { token });
      expect(res.status, `${endpointKey(e)}: ${res.text.slice(0, 200)}`).toBe(200);
      const parsed = envelopeSchema(e.data).safeParse(res.body);
      expect(parsed.error?.issues ?? [], endpointKey(e)).toEqual([]);
      const data = res.body.data as { records?: unknown[] } | unknown[];
      records += Array.isArray(data) ? data.length : (data?.records?.length ?? 1);
      checked++;
    }
    console.log(
      `[figure] openapi: ${checked} GET answers (${records} records) parse with their documented schemas`,
    );
    expect(checked).toBeGreaterThan(20);
  });

  it('has a reference page with no inline script, and serves only the files it loads', async () => {
    const page = await t.app.request('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp.split(';').map((d) => d.trim())).toContain("script-src 'self'");
    const html = await page.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/api\/docs\/[\w.-]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
    for (const src of [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)) {
      expect(src.startsWith('/api/docs/'), src).toBe(true);
      expect((await t.app.request(src)).status, src).toBe(200);
    }
    const init = await (await t.app.request('/api/docs/init.js')).text();
    expect(init).toContain("url: '/api/v1/openapi.json'");
    expect(init).toContain('validatorUrl: null');
    for (const other of ['package.json', 'index.html', 'constructor', '__proto__', '..%2Fpackage.json']) {
      expect((await t.app.request(`/api/docs/${other}`)).status, other).toBe(404);
    }
  });
});
