import { beforeAll, describe, expect, it } from 'vitest';
import { apiEndpoints } from '../contract/api';
import {
  createCustomer,
  createPartner,
  createReward,
  createSuperAdmin,
  createVisit,
  setupTestServer,
  signIn,
} from '../tests/setup/server';
import { API_BASE } from './app';
import { createImportWorker } from './customer-import-worker';
import { CSV_EXPORT_COLUMNS } from './http/csv-columns';
import { buildOpenApiDocument } from './openapi';

/**
 * The reference's CSV examples cannot drift from the files the server writes: each CSV answer is
 * fetched from a seeded server, and its header row must be the documented example's header row.
 */
const t = setupTestServer();
let token: string;
let partnerId: number;
let importId: number;

type Media = { example?: unknown };
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, Media> }> }>>;
};
const csvAnswers = apiEndpoints.filter((e) => e.raw?.contentType === 'text/csv');
const headerRow = (text: string) => text.replace(/^\uFEFF/, '').split('\r\n')[0];

beforeAll(async () => {
  partnerId = (await createPartner(t.db)).id;
  const customerId = (await createCustomer(t.db)).id;
  await createVisit(t.db, { partnerId, customerId, visitDate: t.clock(), amount: 12_000 });
  await createReward(t.db, { partnerId, customerId });
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  // An import with a rejected row (an email that is not one), for the rejects file.
  const res = await t.app.request(`${API_BASE}/admin/customers/imports?fileName=subscribers.csv`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: 'externalId,firstName,lastName,email\r\nSUB-1,Ada,Obi,ada@\r\n',
  });
  expect(res.status).toBe(201);
  importId = ((await res.json()) as { data: { id: number } }).data.id;
  await createImportWorker({ db: t.db, clock: t.clock }).drain();
});

describe('the CSV answers of the reference', () => {
  it('covers every CSV answer: the list exports with their columns, and the import rejects', () => {
    const documented = csvAnswers.map((e) => `${e.method.toUpperCase()} ${e.path}`).sort();
    const written = [...Object.keys(CSV_EXPORT_COLUMNS), 'GET /admin/customers/imports/{id}/rejects'].sort();
    expect(documented).toEqual(written);
    console.log(
      `[figure] openapi: ${csvAnswers.length} CSV answers, each header row checked against the server`,
    );
  });

  it.each(csvAnswers.map((e) => [e.path, e] as const))(
    '%s: the documented header row is the one served',
    async (path, e) => {
      const example = doc.paths[path]!.get!.responses['200']!.content!['text/csv']!.example;
      expect(typeof example, `${path} has no CSV example`).toBe('string');
      const url = path.replace('{id}', String(importId));
      const query = e.query && 'partnerId' in e.query._zod.def.shape ? `?partnerId=${partnerId}` : '';
      const res = await t.app.request(`${API_BASE}${url}${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      const served = headerRow(text);
      expect(served?.length).toBeGreaterThan(0);
      expect(headerRow(example as string)).toBe(served);
    },
  );
});
