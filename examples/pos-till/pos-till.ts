/**
 * A till's day at a partner, with the typed client (client/rc-api.ts, openapi-fetch) and the
 * partner's API key: link the customer, look them up, record a visit, issue a gift card, take part
 * of it with the code the customer reads out, reverse that, and page the visits by cursor.
 *
 *   RC_BASE=http://localhost:3000 RC_API_KEY=rck_… RC_PARTNER_ID=12 \
 *     npx tsx examples/pos-till/pos-till.ts ada.obi@mail.ng
 *
 * It asks for the codes the customer is mailed on the terminal. examples/pos-till/pos-till.test.ts
 * runs the same `posDay` against a fresh server and reads the codes from the server's mailbox.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import createClient from 'openapi-fetch';
import type { paths } from '../../client/rc-api';

export type TillOptions = {
  /** The server, without /api/v1: `http://localhost:3000`. */
  base: string;
  /** The partner's API key (`rck_<prefix>_<secret>`): it needs visits.create, visits.view, rewards.issue, rewards.redeem, rewards.reverse. */
  apiKey: string;
  partnerId: number;
  /** The customer's whole email address, as they say it at the counter. */
  email: string;
  /** The 6-digit code the customer was just mailed ('link': the link code; 'redeem': the redemption code). */
  askCode: (kind: 'link' | 'redeem') => Promise<string>;
  log?: (line: string) => void;
};

export type TillDay = {
  customerId: number;
  visitIds: number[];
  rewardId: number;
  issued: number;
  balanceAfterRedeem: number | null;
  balanceAfterReversal: number | null;
  /** The visits as the cursor walk read them, page by page. */
  pages: number[][];
};

/** An answer the till did not expect: the error envelope's code and message. */
export class TillError extends Error {
  constructor(
    readonly step: string,
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(`${step}: ${status} ${code ?? ''} ${message}`);
  }
}

/** The answer's `data`, or a TillError with the envelope's `code` (branch on it, never on `message`). */
function dataOf<
  R extends { data?: { data: unknown }; error?: { code?: string; message?: string }; response: Response },
>(step: string, r: R): NonNullable<NonNullable<R['data']>['data']> {
  if (r.error || !r.data || r.data.data === null) {
    throw new TillError(step, r.response.status, r.error?.code, r.error?.message ?? 'no data');
  }
  return r.data.data as NonNullable<NonNullable<R['data']>['data']>;
}

export async function posDay(o: TillOptions): Promise<TillDay> {
  const log = o.log ?? (() => {});
  const rc = createClient<paths>({ baseUrl: `${o.base}/api/v1`, headers: { 'X-Api-Key': o.apiKey } });
  const partnerId = o.partnerId;

  // 1. Link the customer: they are mailed a code and read it out; the answer is the linked customer.
  const request = dataOf(
    'ask for a link',
    await rc.POST('/partners/customer-links', { body: { email: o.email } }),
  );
  const linked = dataOf(
    'confirm the link',
    await rc.POST('/partners/customer-links/{linkId}/confirm', {
      params: { path: { linkId: request.id } },
      body: { code: await o.askCode('link') },
    }),
  );
  log(`linked ${linked.customer.firstName} ${linked.customer.lastName} (${linked.customer.email})`);

  // 2. Look the customer up by the address they give (the till's everyday lookup).
  const found = dataOf(
    'look up',
    await rc.GET('/partners/visits/customers', { params: { query: { partnerId, search: o.email } } }),
  );
  const customer = found.find((c) => c.id === linked.customer.id);
  if (!customer) throw new TillError('look up', 200, undefined, 'the linked customer was not found');
  const customerId = customer.id;

  // 3. Record the sale, with an Idempotency-Key: a retry after a lost answer records nothing twice.
  const recordVisit = async (attendantName: string, price: number) =>
    dataOf(
      'record a visit',
      await rc.POST('/user/visits', {
        params: { header: { 'Idempotency-Key': `sale-${randomUUID()}` } },
        body: {
          partnerId,
          customerId,
          attendantName,
          visitDate: new Date().toISOString(),
          items: [{ name: 'Jollof rice', quantity: 2, price }],
        },
      }),
    );
  const visit = await recordVisit('Till 1', 7500);
  log(`visit ${visit.id}: ${visit.totalAmount} naira`);

  // 4. Issue a gift card of 5,000 naira.
  const issued = 5000;
  const reward = dataOf(
    'issue a reward',
    await rc.POST('/partners/rewards/issue-reward', {
      params: { header: { 'Idempotency-Key': `issue-${randomUUID()}` } },
      body: {
        rewardType: 'GIFTCARD',
        issuedAmount: issued,
        title: 'Thank you',
        description: 'For your visit',
        promotionalImage: PIXEL_PNG,
        issuedTo: customerId,
        partnerId,
      },
    }),
  );
  // Above the club's four-eyes threshold the answer is 202 with a request, not a reward (decision 074):
  // a person at the club approves it later. 5,000 naira is under any threshold this day sets.
  if (!('code' in reward))
    throw new TillError('issue a reward', 202, undefined, `waits for approval (request ${reward.id})`);
  log(`gift card ${reward.code}: ${reward.balance} naira`);

  // 5. Redeem part of it: a code is mailed to the customer, who reads it out.
  dataOf(
    'request a code',
    await rc.POST('/partners/rewards/initiate-reward-redemption-auth', {
      params: { header: { 'Idempotency-Key': `code-${randomUUID()}` } },
      body: { userId: customerId, code: reward.code },
    }),
  );
  const otp = await o.askCode('redeem');
  dataOf(
    'check the code',
    await rc.POST('/partners/rewards/redemption-auth-otp-validity-check', {
      body: { userId: customerId, otp, code: reward.code },
    }),
  );
  const redeemed = dataOf(
    'redeem',
    await rc.POST('/partners/rewards/redeem-giftcard', {
      params: { header: { 'Idempotency-Key': `redeem-${randomUUID()}` } },
      body: { userId: customerId, code: reward.code, otp, amountToRedeem: 2000 },
    }),
  );
  log(`redeemed ${redeemed.amountRedeemed}: ${redeemed.balance} naira left`);

  // 6. The customer changes their mind: reverse the redemption.
  const reversed = dataOf(
    'reverse',
    await rc.POST('/partners/rewards/reverse-redemption', {
      params: { header: { 'Idempotency-Key': `reverse-${randomUUID()}` } },
      body: { ledgerEntryId: redeemed.ledgerEntryId!, reason: 'Customer changed their mind' },
    }),
  );
  log(`reversed ${reversed.amountReversed}: ${reversed.balance} naira`);

  // 7. Two more sales, then read the partner's visits by cursor, 2 at a time, while a sale comes in.
  const visitIds = [visit.id, (await recordVisit('Till 2', 3000)).id, (await recordVisit('Till 1', 1200)).id];
  const pages: number[][] = [];
  let startingAfter: number | undefined;
  for (;;) {
    const page = dataOf(
      'page visits',
      await rc.GET('/admin/partners/visits', { params: { query: { partnerId, limit: 2, startingAfter } } }),
    );
    pages.push(page.records.map((v) => v.id));
    log(`visits: ${page.records.map((v) => `${v.id} (${v.attendantName})`).join(', ')}`);
    if (!page.hasMore) break;
    if (pages.length >= 50) throw new TillError('page visits', 200, undefined, 'the walk does not end');
    startingAfter = page.records.at(-1)!.id;
    if (pages.length === 1) await recordVisit('Till 3', 900); // arrives between pages: read next time
  }

  return {
    customerId,
    visitIds,
    rewardId: reward.id,
    issued,
    balanceAfterRedeem: redeemed.balance,
    balanceAfterReversal: reversed.balance,
    pages,
  };
}

/** A 1×1 PNG: the reward's promotional image. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

if (import.meta.url === `file://${process.argv[1]}`) {
  const { RC_BASE, RC_API_KEY, RC_PARTNER_ID } = process.env;
  const email = process.argv[2];
  if (!RC_BASE || !RC_API_KEY || !RC_PARTNER_ID || !email) {
    console.error(
      'usage: RC_BASE=… RC_API_KEY=… RC_PARTNER_ID=… npx tsx examples/pos-till/pos-till.ts <customer email>',
    );
    process.exit(2);
  }
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const day = await posDay({
      base: RC_BASE,
      apiKey: RC_API_KEY,
      partnerId: Number(RC_PARTNER_ID),
      email,
      askCode: (kind) => terminal.question(`The ${kind} code the customer reads out: `),
      log: console.log,
    });
    console.log(JSON.stringify(day));
  } finally {
    terminal.close();
  }
}
