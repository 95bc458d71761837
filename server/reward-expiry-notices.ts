import { and, eq, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { REWARD_EXPIRY_NOTICE_DAYS } from '../contract/webhooks';
import type { Db } from './db/client';
import { customerLinks, customers, partners, rewards } from './db/schema';
import { enqueueWebhooks } from './domain/webhooks';
import { type Logger, silentLogger } from './log';
import { singleRun } from './single-run';

/**
 * `reward.expiring` (issue 31, docs/decisions/065): once per reward, when an Active reward of a live
 * customer is REWARD_EXPIRY_NOTICE_DAYS days or less from its expiry. The state is the reward's
 * `expiry_notice_at`, set in the transaction that queues the message: a restart never sends one
 * again, and two instances scanning at once take disjoint rows (FOR UPDATE SKIP LOCKED, then an
 * update guarded by `expiry_notice_at is null`). The partner's endpoints hear it only while the
 * customer is linked to the partner (decision 053); the club-wide ones always.
 */
export const REWARD_EXPIRY_NOTICE_MS = REWARD_EXPIRY_NOTICE_DAYS * 86_400_000;
/** How often an instance scans (the notice is a day-scale reminder; a minute late is fine). */
export const EXPIRY_NOTICE_POLL_MS = 60_000;
const BATCH = 200;

export type ExpiryNotices = {
  /** Queues every notice due at the clock's now; answers how many rewards were announced. */
  queueDue: () => Promise<number>;
  start: (pollMs?: number) => void;
  stop: () => void;
};

/** One batch in one transaction: claims, stamps and queues. Answers how many were announced. */
async function queueBatch(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const until = new Date(now.getTime() + REWARD_EXPIRY_NOTICE_MS);
    const due = tx
      .select({ id: rewards.id })
      .from(rewards)
      .innerJoin(customers, eq(customers.id, rewards.customerId))
      .innerJoin(partners, eq(partners.id, rewards.partnerId))
      .where(
        and(
          eq(rewards.status, 'Active'),
          isNotNull(rewards.expiryDate),
          isNull(rewards.expiryNoticeAt),
          gt(rewards.expiryDate, now),
          lte(rewards.expiryDate, until),
          // Who cannot use it hears nothing: a blocked, deleted or erased customer, a deleted partner.
          eq(customers.accountStatus, 'ACTIVE'),
          isNull(customers.deletedAt),
          isNull(customers.erasedAt),
          isNull(partners.deletedAt),
        ),
      )
      .orderBy(rewards.expiryDate, rewards.id)
      .limit(BATCH)
      .for('update', { of: rewards, skipLocked: true });
    const claimed = await tx
      .update(rewards)
      .set({ expiryNoticeAt: now })
      .where(and(inArray(rewards.id, due), isNull(rewards.expiryNoticeAt)))
      .returning({
        id: rewards.id,
        code: rewards.code,
        rewardType: rewards.rewardType,
        partnerId: rewards.partnerId,
        customerId: rewards.customerId,
        title: rewards.title,
        expiryDate: rewards.expiryDate,
        balance: rewards.balance,
        percentageDiscount: rewards.percentageDiscount,
        // Spelled out: drizzle writes a RETURNING column unqualified, which the subquery would read as its own.
        linked: sql<boolean>`exists (select 1 from ${customerLinks} l where l.customer_id = "rewards"."customer_id" and l.partner_id = "rewards"."partner_id" and l.state = 'CONFIRMED')`,
      });
    for (const r of claimed) {
      await enqueueWebhooks(
        tx,
        {
          type: 'reward.expiring',
          // Not linked (any more): the club-wide endpoints only.
          partnerId: r.linked ? r.partnerId : null,
          data: {
            rewardId: r.id,
            code: r.code,
            rewardType: r.rewardType,
            partnerId: r.partnerId,
            customerId: r.customerId,
            title: r.title,
            expiryDate: r.expiryDate!.toISOString(),
            balance: r.rewardType === 'GIFTCARD' ? r.balance : null,
            percentageDiscount: r.rewardType === 'COUPON' ? r.percentageDiscount : null,
            noticeAt: now.toISOString(),
          },
        },
        now,
      );
    }
    return claimed.length;
  });
}

export function createExpiryNotices(opts: {
  db: Db;
  clock?: () => Date;
  log?: Logger;
  /** Told when messages were queued (the webhook sender's kick). */
  queued?: () => void;
}): ExpiryNotices {
  const clock = opts.clock ?? (() => new Date());
  const log = opts.log ?? silentLogger;
  const queueDue = async () => {
    let total = 0;
    for (;;) {
      const n = await queueBatch(opts.db, clock());
      total += n;
      if (n < BATCH) break;
    }
    if (total > 0) {
      log.info('reward expiry notices queued', { rewards: total });
      opts.queued?.();
    }
    return total;
  };
  const { kick } = singleRun(queueDue, log, 'reward expiry notices failed');
  let timer: NodeJS.Timeout | null = null;
  return {
    queueDue,
    start: (pollMs = EXPIRY_NOTICE_POLL_MS) => {
      timer ??= setInterval(kick, pollMs);
      timer.unref();
      kick();
    },
    stop: () => {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
