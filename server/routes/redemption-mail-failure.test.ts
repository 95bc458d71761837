import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Reward } from '../../contract/rewards';
import {
  createCustomer,
  createPartner,
  createRole,
  createUser,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { mailOutbox, redemptionOtps } from '../db/schema';

/** A mail transport that always fails: the code must not stay usable. */
const t = setupTestServer({
  transport: {
    describe: 'failing',
    send: async () => {
      throw new Error('SMTP down');
    },
  },
});
let token: string;
let customer: { id: number };
let card: Reward;

beforeAll(async () => {
  const partner = await createPartner(t.db);
  const role = await createRole(t.db, 'Cashier', ['rewards.view', 'rewards.issue', 'rewards.redeem']);
  const staff = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId: partner.id });
  token = (await signIn(t, staff.email, staff.password)).accessToken;
  customer = await createCustomer(t.db);
  // A partner acts only for a customer linked to it (issue 28).
  await linkCustomer(t.db, partner.id, customer.id);
  card = (
    await t.request<Reward>('POST', '/partners/rewards/issue-reward', {
      token,
      json: {
        rewardType: 'GIFTCARD',
        title: 'x',
        description: 'y',
        promotionalImage: PNG_BASE64,
        issuedTo: customer.id,
      },
    })
  ).body.data!;
});

it('a transport failure is a 503 and leaves no usable code', async () => {
  const res = await t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
    token,
    json: { userId: customer.id, code: card.code },
  });
  expect(res.status).toBe(503);
  expect(res.body.message).toBe('The code could not be sent. Please try again.');
  const rows = await t.db.select().from(redemptionOtps).where(eq(redemptionOtps.customerId, customer.id));
  expect(rows).toHaveLength(1);
  expect(rows[0]!.replacedAt).not.toBeNull();
  // Nor readable in the outbox: the mail's body went with it, and the mail is never retried.
  const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, rows[0]!.mailId!));
  expect(mail!.text).not.toMatch(/\d{6}/);
  expect(mail!.sentAt).toBeNull();
  await t.mailer.deliverPending();
  const [after] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, rows[0]!.mailId!));
  expect(after!.attempts).toBe(mail!.attempts);
  const check = await t.request('POST', '/partners/rewards/redemption-auth-otp-validity-check', {
    token,
    json: { userId: customer.id, otp: '123456' },
  });
  expect(check.status).toBe(400);
});
