import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from './db/client';
import { executeRows } from './db/rows';
import { campaigns, partners } from './db/schema';
import { type Actor, actions, recordEvent } from './domain/events';
import { insertIssuedRewards } from './domain/reward-issue';
import { describeError, type Logger, silentLogger } from './log';
import type { RequestMeta } from './types';

/**
 * Runs campaigns (issue 35, docs/decisions/070), the way the customer import worker applies imports
 * (server/customer-import-worker.ts, decision 051): a run claims a 'running' campaign whose lease is
 * free or expired (FOR UPDATE SKIP LOCKED), then issues its targets in customer-id order, one batch per
 * transaction that also locks the campaign row, adds the counts, moves the cursor and renews the
 * lease. A process killed between batches leaves a campaign the next lease resumes at the first
 * customer not done; a batch cut off mid-way rolls back whole. The unique index on
 * (campaign_id, customer_id) of rewards makes a second reward for a customer impossible whatever
 * happens to the cursor. A cancelled campaign is seen at the next batch: the run stops there.
 * A batch is set-based (decision 070, "Speed at 100,000"): its rewards, ledger entries, events and
 * `reward.issued` deliveries are written by server/domain/reward-issue.ts insertIssuedRewards in a few
 * INSERT statements per table, the same rows issue-reward writes for each customer.
 */
export type CampaignWorker = {
  kick: () => void;
  idle: () => Promise<void>;
  start: (pollMs?: number) => void;
  stop: () => void;
  /** Runs every claimable campaign to its end now (tests). */
  drain: () => Promise<void>;
};

export type CampaignWorkerOptions = {
  db: Db;
  clock?: () => Date;
  log?: Logger;
  /** Customers per transaction. */
  batchSize?: number;
  /** How long a claim holds a campaign without a batch; then another worker may take it over. */
  leaseMs?: number;
  /**
   * Called (and awaited) after each committed batch: the webhook sender is woken (each reward queued a
   * message); a test acts between two batches.
   */
  onBatch?: () => void | Promise<void>;
};

/**
 * Customers per batch (one transaction, a few set-based statements per table; docs/decisions/070,
 * "Speed at 100,000"). On PostgreSQL the console's requests run on other connections meanwhile; on
 * PGlite they wait for the batch in flight (one connection, on the server's thread), so a batch there
 * is smaller.
 */
export const CAMPAIGN_BATCH_SIZE = 1000;
export const CAMPAIGN_BATCH_SIZE_PGLITE = 250;
export const CAMPAIGN_LEASE_MS = 15_000;

/** Why a run stops early: the partner can no longer issue. */
const PARTNER_GONE = 'the partner was blocked or deleted';

type CampaignRow = typeof campaigns.$inferSelect;

/**
 * Ends a campaign (done, cancelled or failed) inside the caller's transaction: its event and the one
 * `campaign.completed` message. Called once: the caller moved the state from running (or awaiting
 * approval, or draft) under the row lock.
 */
export async function recordCampaignEnd(
  tx: DbOrTx,
  row: CampaignRow,
  state: 'done' | 'cancelled' | 'failed',
  now: Date,
  by: { actor: Actor; meta?: RequestMeta } | null,
  reason?: string,
) {
  const counts = `${row.issued} issued, ${row.skipped} skipped of ${row.total ?? 0}`;
  await recordEvent(tx, {
    actor: by?.actor ?? (row.actor as Actor),
    action:
      state === 'done'
        ? actions.completedCampaign(row.name, counts)
        : state === 'cancelled'
          ? actions.cancelledCampaign(row.name)
          : actions.failedCampaign(row.name, reason ?? ''),
    entity: 'campaign',
    entityId: row.id,
    payload: { state, total: row.total, issued: row.issued, skipped: row.skipped, partnerId: row.partnerId },
    meta: by?.meta,
    at: now,
    webhook: {
      type: 'campaign.completed',
      partnerId: row.partnerId,
      data: {
        campaignId: row.id,
        partnerId: row.partnerId,
        name: row.name,
        state,
        total: row.total ?? 0,
        issued: row.issued,
        skipped: row.skipped,
        completedAt: now.toISOString(),
      },
    },
  });
}

type TargetRow = {
  customer_id: number;
  first_name: string;
  last_name: string;
  account_status: string;
  erased: boolean;
  deleted: boolean;
  linked: boolean;
};

export function createCampaignWorker(opts: CampaignWorkerOptions): CampaignWorker {
  const { db } = opts;
  const clock = opts.clock ?? (() => new Date());
  const log = opts.log ?? silentLogger;
  const batchSize = opts.batchSize ?? CAMPAIGN_BATCH_SIZE;
  const leaseMs = opts.leaseMs ?? CAMPAIGN_LEASE_MS;
  const owner = randomUUID();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const leaseEnd = () => new Date(clock().getTime() + leaseMs);

  async function claim(): Promise<number | null> {
    const now = clock().toISOString();
    const rows = await executeRows<{ id: number }>(
      db,
      sql`update campaigns set lease_owner = ${owner}, lease_until = ${leaseEnd().toISOString()}::timestamptz
        where id = (
          select id from campaigns
          where state = 'running' and (lease_until is null or lease_until < ${now}::timestamptz)
          order by id limit 1 for update skip locked)
        returning id`,
    );
    return rows[0]?.id ?? null;
  }

  /** Issues the next batch of a campaign; false when it is finished, stopped or no longer ours. */
  async function runBatch(campaignId: number): Promise<boolean> {
    const now = clock();
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.id, campaignId), eq(campaigns.leaseOwner, owner)))
        .for('update');
      if (row?.state !== 'running') return false;
      const [partner] = await tx
        .select({
          id: partners.id,
          organizationName: partners.organizationName,
          accountStatus: partners.accountStatus,
          deletedAt: partners.deletedAt,
        })
        .from(partners)
        .where(eq(partners.id, row.partnerId))
        .for('share');
      const end = async (state: 'done' | 'failed', error?: string) => {
        const [ended] = await tx
          .update(campaigns)
          .set({
            state,
            error: error ?? null,
            finishedAt: now,
            updatedAt: now,
            leaseOwner: null,
            leaseUntil: null,
          })
          .where(eq(campaigns.id, campaignId))
          .returning();
        await recordCampaignEnd(tx, ended!, state, now, null, error);
        return false;
      };
      if (!partner || partner.deletedAt || partner.accountStatus !== 'ACTIVE')
        return end('failed', PARTNER_GONE);

      const targets = await executeRows<TargetRow>(
        tx,
        sql`select t.customer_id, c.first_name, c.last_name, c.account_status,
              c.erased_at is not null as erased, c.deleted_at is not null as deleted,
              exists (select 1 from customer_links l where l.customer_id = c.id
                and l.partner_id = ${row.partnerId} and l.state = 'CONFIRMED') as linked
            from campaign_targets t join customers c on c.id = t.customer_id
            where t.campaign_id = ${campaignId} and t.reason is null and t.customer_id > ${row.nextCustomerId}
            order by t.customer_id limit ${batchSize}
            for share of c`,
      );
      if (targets.length === 0) return end('done');

      const issuable: { id: number; firstName: string; lastName: string }[] = [];
      const skips = new Map<string, number[]>();
      for (const t of targets) {
        const customerId = Number(t.customer_id);
        // The customer may have changed since the segment was fixed: the same rules as the preview.
        const reason =
          t.erased || t.deleted
            ? 'erased'
            : t.account_status !== 'ACTIVE'
              ? 'blocked'
              : !t.linked
                ? 'not_linked'
                : null;
        if (reason) {
          const ids = skips.get(reason);
          if (ids) ids.push(customerId);
          else skips.set(reason, [customerId]);
        } else issuable.push({ id: customerId, firstName: t.first_name, lastName: t.last_name });
      }
      // The whole batch set-based: the rows issue-reward writes for each customer, in a few statements.
      // A customer missing from the answer holds this campaign's reward already (counted when issued).
      const made = await insertIssuedRewards(
        tx,
        {
          partner,
          rewardType: row.rewardType,
          rewardTypeCategory: row.rewardTypeCategory,
          title: row.title,
          description: row.description,
          promotionalImage: row.promotionalImage,
          expiryDate: row.expiryDate,
          issuedAmount: row.issuedAmount,
          percentageDiscount: row.percentageDiscount,
          pointsClaimed: 0,
          issuedBy: row.createdBy,
          actor: row.actor as Actor,
          now,
          campaignId,
        },
        issuable,
      );
      const issued = made.length;
      let skipped = 0;
      for (const [reason, ids] of skips) {
        skipped += ids.length;
        await tx.execute(sql`update campaign_targets set reason = ${reason}
          where campaign_id = ${campaignId}
            and customer_id in (select value::int from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`);
      }
      await tx
        .update(campaigns)
        .set({
          issued: sql`${campaigns.issued} + ${issued}`,
          skipped: sql`${campaigns.skipped} + ${skipped}`,
          nextCustomerId: Number(targets[targets.length - 1]!.customer_id),
          leaseUntil: leaseEnd(),
          updatedAt: now,
        })
        .where(eq(campaigns.id, campaignId));
      return true;
    });
  }

  async function runCampaign(campaignId: number) {
    while (!stopped && (await runBatch(campaignId))) {
      await opts.onBatch?.();
      // A turn of the event loop between batches: on PGlite (queries run on this thread) the
      // requests that came in meanwhile are read and answered between two batches, not after the run.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await opts.onBatch?.();
    // Stopped between two batches (SIGTERM): the lease is given back, so the next start resumes at once.
    if (stopped)
      await db
        .update(campaigns)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(and(eq(campaigns.id, campaignId), eq(campaigns.leaseOwner, owner)));
  }

  async function lane() {
    while (!stopped) {
      const id = await claim();
      if (id === null) return;
      log.info('campaign: issuing', { campaignId: id });
      await runCampaign(id);
    }
  }

  let running: Promise<void> | null = null;
  let pending = false;
  const kick = () => {
    if (stopped) return;
    pending = true;
    if (running) return;
    running = (async () => {
      do {
        pending = false;
        await lane();
      } while (pending && !stopped);
    })()
      .catch((err) => log.error('campaign worker failed', { error: describeError(err) }))
      .finally(() => {
        running = null;
      });
  };

  return {
    kick,
    idle: async () => {
      while (running) await running;
    },
    drain: async () => {
      await lane();
    },
    start: (pollMs = 5_000) => {
      stopped = false;
      kick();
      timer = setInterval(kick, pollMs);
      timer.unref();
    },
    stop: () => {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}
