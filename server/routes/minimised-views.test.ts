import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import {
  createCustomer,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';

/**
 * Minimised views (issue 28, decision 053): every partner-facing answer and CSV that carries a linked
 * customer shows their name, a masked email and a masked phone, never the address nor the full
 * contact details. Read as partner staff holding every permission and as a partner API key.
 */
const t = setupTestServer();
const EMAIL = 'zainab.fullname@mail.test';
const PHONE = '08031234567';
const ADDRESS = '12 Secret Close, Ikoyi';
let partnerId: number;
let customer: { id: number };
let reward: { code: string };
let visitId: number;
let staff: string;
let key: string;
let admin: string;

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  admin = (await signIn(t, root.email, root.password)).accessToken;
  partnerId = (await createPartner(t.db, { organizationName: 'Minimal shop', minSpendToQualify: 2000 })).id;
  customer = await createCustomer(t.db, {
    firstName: 'Zainab',
    lastName: 'Minimised',
    email: EMAIL,
    phone: PHONE,
    address: ADDRESS,
  });
  visitId = (
    await createVisit(t.db, {
      partnerId,
      customerId: customer.id,
      visitDate: new Date('2026-03-01T10:00:00Z'),
      amount: 25_000,
    })
  ).id;
  reward = await createReward(t.db, { partnerId, customerId: customer.id });
  const everything = await createRole(t.db, 'Minimal all', ALL_PERMISSION_NAMES, false, true);
  const user = await createUser(t.db, { roleId: everything.id, userType: 'PARTNER', partnerId });
  staff = (await signIn(t, user.email, user.password)).accessToken;
  const made = await t.request<{ key: string }>('POST', `/admin/partners/${partnerId}/api-keys`, {
    token: admin,
    json: {
      name: 'Minimal till',
      permissions: ['visits.view', 'clients.view', 'rewards.view', 'rewards.redeem', 'visits.create'],
    },
  });
  key = made.body.data!.key;
});

describe('what partner staff and keys read of a linked customer', () => {
  it('no answer and no CSV carries the address, the full email or the full phone; the name is there', async () => {
    const p = `partnerId=${partnerId}`;
    const reads: [string, string, unknown?][] = [
      ['GET', '/admin/user/customers?pageSize=100'],
      ['GET', '/admin/user/customers/export'],
      ['GET', `/admin/user/customers/${customer.id}`],
      ['GET', `/admin/partners/visits?${p}`],
      ['GET', `/admin/partners/visits/export?${p}`],
      ['GET', `/admin/partners/visits/${visitId}`],
      ['GET', `/admin/partners/visits/reward-eligible-users?${p}&date=2026-03-02`],
      ['GET', `/admin/partners/visits/reward-eligible-users/export?${p}&date=2026-03-02`],
      ['GET', `/admin/partners/visits/reward-eligible-users/${customer.id}?${p}&date=2026-03-02`],
      ['GET', `/admin/partners/visits/eligible-users-bypoints?${p}`],
      ['GET', `/admin/partners/visits/eligible-users-bypoints/export?${p}`],
      ['GET', `/admin/partners/rewards?${p}`],
      ['GET', `/admin/partners/rewards/export?${p}`],
      ['GET', `/partners/visits/customers?search=zainab`],
      ['GET', `/partners/rewards/customers?search=zainab`],
      ['POST', '/partners/rewards/get-reward', { userId: customer.id, code: reward.code }],
    ];
    const phoneDigits = PHONE.slice(1);
    for (const auth of [{ token: staff }, { headers: { 'X-Api-Key': key } }]) {
      for (const [method, path, json] of reads) {
        const res = await t.request(method, path, { ...auth, json });
        // A key lacks some permissions (403): only the answers it gets are read.
        if ('headers' in auth && res.status === 403) continue;
        expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
        const text = res.text.toLowerCase();
        expect(text, path).not.toContain(EMAIL);
        expect(text, path).not.toContain(phoneDigits);
        expect(text, path).not.toContain('secret close');
      }
    }
    // The name is what the counter needs; the club's admin still reads the whole record.
    const own = await t.request<{ firstName: string; email: string; phone: string }>(
      'GET',
      `/admin/user/customers/${customer.id}`,
      { token: staff },
    );
    expect(own.body.data).toMatchObject({
      firstName: 'Zainab',
      email: 'z***@mail.test',
      phone: '********567',
    });
    const full = await t.request('GET', `/admin/user/customers/${customer.id}`, { token: admin });
    expect(full.text).toContain(EMAIL);
    expect(full.text).toContain(ADDRESS);
  });
});
