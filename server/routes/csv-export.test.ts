import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, ListData } from '../../contract/envelope';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { API_BASE } from '../app';
import { events } from '../db/schema';
import { CSV_BOM } from '../http/csv-export';

/**
 * CSV exports (issue 9, decision 017): every export holds exactly the rows its list shows across all
 * pages, in the same order, for every sort key in both directions; batches are lowered to 3 rows so
 * the keyset crosses many batch boundaries (ties, NULL sort keys). Then filters, permission,
 * partner scope, escaping and formula injection.
 */
const t = setupTestServer({ config: { exportBatchSize: 3 } });
let admin: string;
let ownStaff: string;
let noClients: string;
let own: { id: number };
let other: { id: number };

type Csv = { status: number; headers: Headers; text: string; rows: string[][] };

async function exportOf(path: string, token = admin): Promise<Csv> {
  const res = await t.app.request(`${API_BASE}${path}`, { headers: { authorization: `Bearer ${token}` } });
  // ignoreBOM: keep the byte order mark in the text (a plain res.text() drops it).
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  const rows: string[][] = res.headers.get('content-type')?.startsWith('text/csv')
    ? parse(text, { bom: true, relax_column_count: false })
    : [];
  return { status: res.status, headers: res.headers, text, rows };
}

/** Every id of a list, page by page (pageSize 100), as the SPA's pager walks it. */
async function listIds(path: string, idOf: (r: Record<string, unknown>) => unknown): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await t.request<ListData<Record<string, unknown>>>(
      'GET',
      `${path}${sep}pageNumber=${page}&pageSize=100`,
      { token: admin },
    );
    expect(res.status, res.text).toBe(200);
    const records = res.body.data!.records;
    ids.push(...records.map((r) => String(idOf(r))));
    if (records.length < 100) return ids;
  }
}

const sameDay = new Date('2026-02-20T08:00:00.000Z');

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  admin = (await signIn(t, root.email, root.password)).accessToken;
  const services = [
    await createExtendedService(t.db, { title: 'Wi-Fi', description: '=1+1 free' }),
    await createExtendedService(t.db, { title: 'wi-fi', description: 'Same title, other case' }),
    await createExtendedService(t.db, { title: 'Delivery', description: 'To the door' }),
  ];
  own = await createPartner(t.db, { organizationName: 'Own Shop', serviceIds: [services[0]!.id] });
  other = await createPartner(t.db, { organizationName: 'Other Shop' });
  await createPartner(t.db, { organizationName: 'alpha Mart', createdAt: sameDay });
  await createPartner(t.db, { organizationName: 'Alpha Mart', createdAt: sameDay });
  await createPartner(t.db, { organizationName: 'Blocked Co', accountStatus: 'BLOCKED' });

  // Customers with tied names and dates, and cells a spreadsheet would run as formulas.
  const names = ['Ada', 'ada', 'Bola', 'Chidi', 'Ada', 'Emeka', 'Bola', 'Funke'];
  const customers = [];
  for (const [i, firstName] of names.entries()) {
    customers.push(
      await createCustomer(t.db, {
        firstName,
        lastName: `Okoro${i % 3}`,
        createdAt: i % 2 ? sameDay : new Date(sameDay.getTime() + i * 1000),
      }),
    );
  }
  customers.push(
    await createCustomer(t.db, {
      firstName: '=HYPERLINK("http://evil.test","click")',
      lastName: 'Smith, "Jr"',
      address: 'Line one\nLine two',
      phone: '+2348012345678',
      email: '@SUM(1+1)@mail.test',
    }),
  );
  await createCustomer(t.db, { firstName: 'Gone', lastName: 'Blocked', accountStatus: 'BLOCKED' });

  // Visits and rewards at both partners: tied dates and amounts, rewards with and without expiry.
  for (const [i, c] of customers.entries()) {
    for (const partner of [own, other]) {
      await createVisit(t.db, {
        partnerId: partner.id,
        customerId: c.id,
        visitDate: new Date(sameDay.getTime() + (i % 3) * 3_600_000),
        amount: 4_000 + (i % 4) * 2_500,
        attendantName: i % 2 ? 'Bisi' : 'bisi',
      });
    }
    await createReward(t.db, {
      partnerId: own.id,
      customerId: c.id,
      expiryDate: i % 3 ? new Date('2026-12-31T22:59:59.000Z') : null,
      balance: 1_000 * (i % 3),
      createdAt: sameDay,
    });
  }
  await createReward(t.db, { partnerId: other.id, customerId: customers[0]!.id });

  // Staff: some without a role (a NULL sort key), partner staff of the own partner.
  const viewer = await createRole(t.db, 'Viewer', ['partners.view', 'visits.view', 'rewards.view']);
  await createRole(t.db, 'auditor', ['activities.view']);
  await createRole(t.db, '+Formula role', ['staff.view']);
  for (let i = 0; i < 5; i++) await createUser(t.db, { roleId: i % 2 ? viewer.id : null });
  const staff = await createUser(t.db, { roleId: viewer.id, userType: 'PARTNER', partnerId: own.id });
  ownStaff = (await signIn(t, staff.email, staff.password)).accessToken;
  const lacking = await createUser(t.db, { roleId: viewer.id });
  noClients = (await signIn(t, lacking.email, lacking.password)).accessToken;

  // Activity log rows of every user type, some at the same instant.
  for (let i = 0; i < 8; i++) {
    await t.db.insert(events).values({
      at: i % 2 ? sameDay : new Date(sameDay.getTime() + i),
      actorType: (['ADMIN', 'PARTNER', 'CUSTOMER'] as const)[i % 3]!,
      actorName: i % 2 ? 'Ngozi' : 'ngozi',
      action: i === 4 ? '-Deleted partner' : `Action ${i % 3}`,
      entity: 'partner',
    });
  }
});

/** Each export with its list path, its sort keys and how a list record names its id. */
const EXPORTS: { list: () => string; sorts: string[]; id?: (r: Record<string, unknown>) => unknown }[] = [
  {
    list: () => '/admin/partners',
    sorts: ['organizationName', 'firstName', 'lastName', 'email', 'createdAt'],
  },
  { list: () => '/admin/user/customers', sorts: ['firstName', 'lastName', 'email', 'createdAt'] },
  { list: () => '/admin/user/admin-users', sorts: ['firstName', 'lastName', 'email', 'role', 'createdAt'] },
  { list: () => '/admin/admin-users', sorts: ['role'] },
  { list: () => '/admin/user/get-roles', sorts: ['name', 'createdAt', 'staffCount'] },
  { list: () => '/admin/partners/extended-services', sorts: ['title', 'createdAt'] },
  { list: () => '/admin/user/activities?userType=ADMIN', sorts: ['createdAt', 'action', 'name'] },
  { list: () => '/admin/user/activities?userType=PARTNER', sorts: ['name'] },
  {
    list: () => `/admin/partners/visits?partnerId=${own.id}`,
    sorts: ['visitDate', 'totalAmount', 'userName', 'attendantName'],
  },
  {
    list: () => `/admin/partners/rewards?partnerId=${own.id}`,
    sorts: ['createdAt', 'expiryDate', 'userName', 'rewardType', 'status', 'balance'],
  },
  {
    list: () => `/admin/partners/visits/reward-eligible-users?partnerId=${own.id}&date=2026-02-21`,
    sorts: ['userName', 'totalSpent'],
    id: (r) => (r.user as { id: number }).id,
  },
  { list: () => `/admin/partners/visits/eligible-users-bypoints?partnerId=${own.id}`, sorts: [] },
];

const exportPath = (list: string, query: string) => {
  const [path, search] = list.split('?');
  const params = [search, query].filter(Boolean).join('&');
  return `${path}/export${params ? `?${params}` : ''}`;
};

describe('an export holds exactly the rows of its list, in its order', () => {
  for (const e of EXPORTS) {
    it(`${e.list.toString().replace(/^\(\) => /, '')}: default sort and every sort key both ways`, async () => {
      const variants = [
        '',
        ...e.sorts.flatMap((s) => [`sortBy=${s}&sortOrder=asc`, `sortBy=${s}&sortOrder=desc`]),
      ];
      for (const query of variants) {
        const list = e.list();
        const want = await listIds(
          `${list}${query ? `${list.includes('?') ? '&' : '?'}${query}` : ''}`,
          e.id ?? ((r) => r.id),
        );
        const got = await exportOf(exportPath(list, query));
        expect(got.status, got.text).toBe(200);
        expect(want.length, `${list} ${query} has rows`).toBeGreaterThan(0);
        expect(
          got.rows.slice(1).map((r) => r[0]),
          `${list} ${query}`,
        ).toEqual(want);
        expect(got.headers.get('x-total-count')).toBe(String(want.length));
      }
    });
  }
});

describe('export response', () => {
  it('is a UTF-8 CSV attachment with a BOM, CRLF lines, a header row and the list filters applied', async () => {
    const all = await exportOf('/admin/user/customers/export');
    expect(all.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(all.headers.get('content-disposition')).toBe('attachment; filename="customers-2026-03-02.csv"');
    expect(all.headers.get('cache-control')).toBe('no-store');
    expect(all.text.startsWith(CSV_BOM)).toBe(true);
    expect(all.text.split('\r\n')[0]).toBe(
      `${CSV_BOM}ID,First name,Last name,Email,Phone,Address,Status,Created`,
    );
    expect(all.rows.length - 1).toBe(9); // the blocked customer is on the other tab

    const blocked = await exportOf('/admin/user/customers/export?status=BLOCKED');
    expect(blocked.rows.slice(1).map((r) => r[1])).toEqual(['Gone']);
    expect(blocked.headers.get('content-disposition')).toContain('customers-blocked-2026-03-02.csv');

    const searched = await exportOf('/admin/user/customers/export?searchText=okoro1&sortBy=firstName');
    expect(searched.rows.slice(1).map((r) => `${r[1]} ${r[2]}`)).toEqual([
      'ada Okoro1',
      'Ada Okoro1',
      'Funke Okoro1',
    ]);

    const partners = await exportOf('/admin/partners/export?search=alpha&sortBy=organizationName');
    expect(
      partners.rows
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(['Alpha Mart', 'alpha Mart']);

    const dated = await exportOf(
      `/admin/partners/visits/export?partnerId=${own.id}&startDate=2026-02-20&endDate=2026-02-20`,
    );
    const all2 = await exportOf(`/admin/partners/visits/export?partnerId=${own.id}`);
    expect(dated.rows.length).toBeGreaterThan(1);
    expect(dated.rows.length).toBeLessThanOrEqual(all2.rows.length);

    const active = await exportOf(`/admin/partners/rewards/export?partnerId=${own.id}&status=Active`);
    expect(active.rows.slice(1).every((r) => r[12] === 'Active')).toBe(true);
  });

  it('an empty result is the header row alone', async () => {
    const none = await exportOf('/admin/user/customers/export?searchText=nobody-is-called-this');
    expect(none.status).toBe(200);
    expect(none.rows).toHaveLength(1);
    expect(none.headers.get('x-total-count')).toBe('0');
  });

  it('quotes commas, quotes and line breaks, and defuses cells a spreadsheet would run as formulas', async () => {
    const csv = await exportOf('/admin/user/customers/export?searchText=Smith');
    const [header, row] = csv.rows as [string[], string[]];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('First name')).toBe(`'=HYPERLINK("http://evil.test","click")`);
    expect(cell('Last name')).toBe('Smith, "Jr"');
    expect(cell('Address')).toBe('Line one\nLine two');
    expect(cell('Phone')).toBe(`'+2348012345678`);
    expect(cell('Email')).toBe(`'@SUM(1+1)@mail.test`);
    expect(csv.text).toContain('"Smith, ""Jr"""');

    const roles = await exportOf('/admin/user/get-roles/export?search=Formula');
    expect(roles.rows[1]?.[1]).toBe(`'+Formula role`);
    const log = await exportOf('/admin/user/activities/export?userType=PARTNER&search=Deleted');
    expect(log.rows[1]?.[4]).toBe(`'-Deleted partner`);
    const services = await exportOf('/admin/partners/extended-services/export?search=free');
    expect(services.rows[1]?.[2]).toBe(`'=1+1 free`);
    // Numbers stay numbers (a negative amount would not be prefixed; amounts here are plain).
    const visits = await exportOf(`/admin/partners/visits/export?partnerId=${own.id}`);
    expect(visits.rows.slice(1).every((r) => /^\d+(\.\d+)?$/.test(r[6]!))).toBe(true);
  });
});

describe('export access', () => {
  it('needs the list permission: 403 in the envelope, no CSV', async () => {
    const res = await exportOf('/admin/user/customers/export', noClients);
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect((JSON.parse(res.text) as Envelope<null>).message).toBe('You do not have permission to do this');
  });

  it('bad filters get a 400 with field errors, not a file', async () => {
    const res = await exportOf('/admin/user/customers/export?sortBy=password&startDate=yesterday');
    expect(res.status).toBe(400);
    const body = JSON.parse(res.text) as Envelope<null>;
    expect(body.errors.map((e) => e.fieldName).sort()).toEqual(['sortBy', 'startDate']);
  });

  it("partner staff export their own partner's rows; another partner's data is 404", async () => {
    for (const path of [
      '/admin/partners/visits/export',
      '/admin/partners/rewards/export',
      '/admin/partners/visits/reward-eligible-users/export',
      '/admin/partners/visits/eligible-users-bypoints/export',
    ]) {
      const theirs = await exportOf(`${path}?partnerId=${other.id}`, ownStaff);
      expect(theirs.status, path).toBe(404);
      expect(JSON.parse(theirs.text), path).toMatchObject({ success: false, message: 'Partner not found' });
      const mine = await exportOf(`${path}?partnerId=${own.id}`, ownStaff);
      expect(mine.status, path).toBe(200);
    }
    const visits = await exportOf(`/admin/partners/visits/export?partnerId=${own.id}`, ownStaff);
    expect(new Set(visits.rows.slice(1).map((r) => r[7]))).toEqual(new Set(['Own Shop']));
    // The partner list and its export are club-wide: refused to partner staff (decision 023).
    expect((await exportOf('/admin/partners/export', ownStaff)).status).toBe(403);
  });
});
