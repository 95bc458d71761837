import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { parseMemberNumber } from '../../contract/customer-links';
import type { DbOrTx } from '../db/client';
import { customerLinks, customers } from '../db/schema';
import { hashOtp, OTP_DAY_MS, OTP_MAX_ATTEMPTS, OTP_TTL_MS } from './otp';

/*
 * Consent links (issue 28, docs/decisions/053-customer-links.md): a partner acts for a customer only
 * once the customer proved presence with a one-time code. These are the rules without HTTP.
 */

/** At most this many link codes a day for one thing asked (an address or a member number) at one partner. */
export const LINK_DAILY_CAP = 10;

export const LINK_MAIL_SUBJECT = 'Your Reward Club link code';

export const linkMail = (to: string, code: string, partner: string) => ({
  to,
  subject: LINK_MAIL_SUBJECT,
  text: [
    'Hello,',
    '',
    `${partner} asks to record your visits and rewards with them.`,
    '',
    `Your link code is: ${code}`,
    '',
    'Give it to the staff member only if you are at their counter now. It is valid for 5 minutes and can be used once.',
    'If you did not ask for this, ignore this message: nothing is shared without the code.',
    '',
    'Reward Club',
  ].join('\n'),
});

/** HMAC of a link code, bound to the link request (never the same as a redemption code's). */
export const hashLinkCode = (secret: string, linkId: number, code: string) =>
  hashOtp(secret, -linkId, `link:${code}`);

/** What a request asks by, normalised: the daily cap counts per partner and per this. */
export function requestedKey(body: { email?: string; memberNumber?: string }): string {
  if (body.email !== undefined) return `email:${body.email.trim().toLowerCase()}`;
  return `member:${parseMemberNumber(body.memberNumber ?? '') ?? 'none'}`;
}

/** The live, not erased customer a request names (null: nobody; the request still looks the same). */
export async function linkableCustomer(
  db: DbOrTx,
  body: { email?: string; memberNumber?: string },
): Promise<{ id: number; email: string; firstName: string; lastName: string } | null> {
  const id = body.memberNumber !== undefined ? parseMemberNumber(body.memberNumber) : null;
  const match =
    body.email !== undefined
      ? sql`lower(${customers.email}) = lower(${body.email.trim()})`
      : id === null
        ? sql`false`
        : eq(customers.id, id);
  const [row] = await db
    .select({
      id: customers.id,
      email: customers.email,
      firstName: customers.firstName,
      lastName: customers.lastName,
    })
    .from(customers)
    .where(and(match, isNull(customers.deletedAt), isNull(customers.erasedAt)))
    .limit(1);
  return row ?? null;
}

/** Requests made today at a partner for one thing asked (the daily cap, counted alike for nobody). */
export async function requestsToday(db: DbOrTx, partnerId: number, requested: string, now: Date) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customerLinks)
    .where(
      and(
        eq(customerLinks.partnerId, partnerId),
        eq(customerLinks.requested, requested),
        gt(customerLinks.createdAt, new Date(now.getTime() - OTP_DAY_MS)),
      ),
    );
  return row?.n ?? 0;
}

/** Seconds until a request for `requested` may be sent again: the oldest of the day's cap leaves the 24 hours. */
export async function linkCapRetryAfter(db: DbOrTx, partnerId: number, requested: string, now: Date) {
  const rows = await db
    .select({ at: customerLinks.createdAt })
    .from(customerLinks)
    .where(
      and(
        eq(customerLinks.partnerId, partnerId),
        eq(customerLinks.requested, requested),
        gt(customerLinks.createdAt, new Date(now.getTime() - OTP_DAY_MS)),
      ),
    )
    .orderBy(desc(customerLinks.createdAt))
    .limit(LINK_DAILY_CAP);
  const oldest = rows.at(-1);
  return oldest ? Math.max(1, Math.ceil((oldest.at.getTime() + OTP_DAY_MS - now.getTime()) / 1000)) : 1;
}

/**
 * A new pending request: earlier pending requests for the same thing at the partner stop working.
 * A request naming nobody gets a random hash no code can match.
 */
export async function createLinkRequest(
  tx: DbOrTx,
  o: {
    partnerId: number;
    customerId: number | null;
    requested: string;
    createdBy: number | null;
    secret: string;
    code: string;
    now: Date;
  },
) {
  await tx
    .update(customerLinks)
    .set({ replacedAt: o.now })
    .where(
      and(
        eq(customerLinks.partnerId, o.partnerId),
        eq(customerLinks.requested, o.requested),
        eq(customerLinks.state, 'PENDING'),
        isNull(customerLinks.replacedAt),
      ),
    );
  const [row] = await tx
    .insert(customerLinks)
    .values({
      partnerId: o.partnerId,
      customerId: o.customerId,
      requested: o.requested,
      state: 'PENDING',
      createdBy: o.createdBy,
      codeExpiresAt: new Date(o.now.getTime() + OTP_TTL_MS),
      createdAt: o.now,
    })
    .returning({ id: customerLinks.id });
  const codeHash =
    o.customerId === null ? randomBytes(32).toString('hex') : hashLinkCode(o.secret, row!.id, o.code);
  await tx.update(customerLinks).set({ codeHash }).where(eq(customerLinks.id, row!.id));
  return row!.id;
}

export type LinkRow = typeof customerLinks.$inferSelect;

/** Why a link code cannot be used now (null: usable, the hash decides). */
export function linkBlocker(row: LinkRow, now: Date): { status: 400 | 429; kind: string } | null {
  if (row.replacedAt) return { status: 400, kind: 'used' };
  if (row.attempts >= OTP_MAX_ATTEMPTS) return { status: 429, kind: 'locked' };
  if (!row.codeExpiresAt || row.codeExpiresAt.getTime() <= now.getTime())
    return { status: 400, kind: 'expired' };
  return null;
}

/** One wrong try, atomically (of concurrent wrong tries only the first five count). */
export async function countWrongLinkAttempt(db: DbOrTx, linkId: number): Promise<number | null> {
  const [row] = await db
    .update(customerLinks)
    .set({ attempts: sql`${customerLinks.attempts} + 1` })
    .where(and(eq(customerLinks.id, linkId), sql`${customerLinks.attempts} < ${OTP_MAX_ATTEMPTS}`))
    .returning({ attempts: customerLinks.attempts });
  return row ? row.attempts : null;
}

/** Whether the customer is linked (confirmed) to the partner, live and not erased. */
export async function isLinked(db: DbOrTx, partnerId: number, customerId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: customerLinks.id })
    .from(customerLinks)
    .innerJoin(customers, eq(customers.id, customerLinks.customerId))
    .where(
      and(
        eq(customerLinks.partnerId, partnerId),
        eq(customerLinks.customerId, customerId),
        eq(customerLinks.state, 'CONFIRMED'),
        isNull(customers.deletedAt),
        isNull(customers.erasedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** SQL: the customer row `customerIdColumn` is linked (confirmed) to the partner. */
export const linkedTo = (partnerId: number, customerIdColumn: unknown) =>
  sql`exists (select 1 from customer_links l where l.customer_id = ${customerIdColumn} and l.partner_id = ${partnerId} and l.state = 'CONFIRMED')`;
