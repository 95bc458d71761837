import { randomUUID } from 'node:crypto';
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { customerRecordSchema } from '../contract/customer-sync';
import type { Db } from './db/client';
import { customerImportRejects, customerImportRows, customerImports } from './db/schema';
import { applyCustomerRecords } from './domain/customer-sync';
import { type Actor, actions, recordEvent } from './domain/events';
import { describeError, type Logger, silentLogger } from './log';
import { singleRun } from './single-run';

/**
 * Applies staged customer imports (issue 27, docs/decisions/051). A run claims a queued (or
 * abandoned: lease expired) job with FOR UPDATE SKIP LOCKED and a lease, then applies its rows in
 * order, one batch per transaction that also takes (deletes) the staged rows, adds the counts and moves
 * `next_row`: a process stopped or killed between batches leaves a job that the next lease resumes
 * at the first row not applied, so every row is applied exactly once. Any number of instances may
 * run a worker; each takes up to `slots` jobs at once (two imports go side by side).
 */
export type ImportWorker = {
  /**
   * How often an upload (or a dry run, decision 062) still reading or deciding its staged rows
   * touches its job: well within the cut-off after which this worker's sweep takes it for dead.
   */
  heartbeatMs: number;
  kick: () => void;
  idle: () => Promise<void>;
  start: (pollMs?: number) => void;
  stop: () => void;
  /** Applies every claimable job now (tests). */
  drain: () => Promise<void>;
};

export type ImportWorkerOptions = {
  db: Db;
  clock?: () => Date;
  log?: Logger;
  /** Rows per transaction. */
  batchSize?: number;
  /** How long a claim holds a job without a batch; then another worker may take it over. */
  leaseMs?: number;
  /** Jobs one worker applies at once. */
  slots?: number;
  /**
   * An upload 'receiving' with no sign of life for this long was cut off (the sender or the server
   * that read it died): it is marked failed. A live upload touches its job every
   * UPLOAD_HEARTBEAT_MS and at each staged batch.
   */
  abandonedUploadMs?: number;
};

/** Rows per transaction: 1,000 halves the per-batch cost (lock, job row, commit) of 500. */
export const IMPORT_BATCH_SIZE = 1000;
export const IMPORT_LEASE_MS = 15_000;
/** How often a live upload shows it is alive (server/routes/customer-imports.ts). */
export const UPLOAD_HEARTBEAT_MS = 10_000;
/** Six missed heartbeats: the upload is gone. */
export const ABANDONED_UPLOAD_MS = 6 * UPLOAD_HEARTBEAT_MS;
/** Heartbeats per cut-off: a worker with a shorter cut-off (tests) asks for a quicker heartbeat. */
const HEARTBEATS_PER_CUT_OFF = ABANDONED_UPLOAD_MS / UPLOAD_HEARTBEAT_MS;
const UPLOAD_CUT_OFF = 'The upload was cut off before the end of the file; send the file again';

export function createImportWorker(opts: ImportWorkerOptions): ImportWorker {
  const { db } = opts;
  const clock = opts.clock ?? (() => new Date());
  const log = opts.log ?? silentLogger;
  const batchSize = opts.batchSize ?? IMPORT_BATCH_SIZE;
  const leaseMs = opts.leaseMs ?? IMPORT_LEASE_MS;
  const slots = opts.slots ?? 2;
  const abandonedUploadMs = opts.abandonedUploadMs ?? ABANDONED_UPLOAD_MS;
  const owner = randomUUID();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const leaseEnd = () => new Date(clock().getTime() + leaseMs);

  /** One job claimed for this worker, or null. */
  async function claim(): Promise<number | null> {
    const now = clock();
    const rows = await db.execute<{ id: number }>(sql`
      update customer_imports set state = 'running', lease_owner = ${owner},
        lease_until = ${leaseEnd().toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
      where id = (
        select id from customer_imports
        where state in ('queued', 'running')
          and (lease_until is null or lease_until < ${now.toISOString()}::timestamptz)
        order by id limit 1 for update skip locked)
      returning id`);
    const list =
      (rows as unknown as { rows?: { id: number }[] }).rows ?? (rows as unknown as { id: number }[]);
    return list[0]?.id ?? null;
  }

  /** Applies the next batch of a job; false when the job is finished or no longer ours. */
  async function applyBatch(importId: number): Promise<boolean> {
    const now = clock();
    return db.transaction(async (tx) => {
      const [job] = await tx
        .select()
        .from(customerImports)
        .where(and(eq(customerImports.id, importId), eq(customerImports.leaseOwner, owner)))
        .for('update');
      if (job?.state !== 'running') return false;
      // The batch's staged rows are taken (deleted, returned) in one statement: the transaction
      // that applies them is the one that removes them.
      const staged = (
        await tx
          .delete(customerImportRows)
          .where(
            and(
              eq(customerImportRows.importId, importId),
              inArray(
                customerImportRows.rowNumber,
                tx
                  .select({ rowNumber: customerImportRows.rowNumber })
                  .from(customerImportRows)
                  .where(
                    and(
                      eq(customerImportRows.importId, importId),
                      gte(customerImportRows.rowNumber, job.nextRow),
                    ),
                  )
                  .orderBy(asc(customerImportRows.rowNumber))
                  .limit(batchSize),
              ),
            ),
          )
          .returning()
      ).sort((x, y) => x.rowNumber - y.rowNumber);
      if (staged.length === 0) {
        const counts = `${job.created} created, ${job.updated} updated, ${job.unchanged} unchanged, ${job.rejected} rejected`;
        await tx
          .update(customerImports)
          .set({ state: 'done', finishedAt: now, updatedAt: now, leaseOwner: null, leaseUntil: null })
          .where(eq(customerImports.id, importId));
        await recordEvent(tx, {
          actor: job.actor as Actor,
          action: actions.importedCustomers(job.fileName, counts),
          entity: 'customer_import',
          entityId: importId,
          payload: {
            fileName: job.fileName,
            rowsRead: job.rowsRead,
            created: job.created,
            updated: job.updated,
            unchanged: job.unchanged,
            rejected: job.rejected,
          },
          at: now,
        });
        return false;
      }
      const outcomes = await applyCustomerRecords(
        tx,
        staged.map((r) => ({ externalId: r.externalId, record: customerRecordSchema.parse(r.record) })),
        now,
      );
      const count = { created: 0, updated: 0, unchanged: 0, rejected: 0 };
      const rejects: (typeof customerImportRejects.$inferInsert)[] = [];
      outcomes.forEach((o, i) => {
        count[o.result]++;
        if (o.result === 'rejected') {
          const r = staged[i]!;
          rejects.push({
            importId,
            rowNumber: r.rowNumber,
            externalId: r.externalId,
            reason: o.reason,
            raw: JSON.stringify({ externalId: r.externalId, ...r.record }),
          });
        }
      });
      if (rejects.length) await tx.insert(customerImportRejects).values(rejects).onConflictDoNothing();
      const last = staged[staged.length - 1]!.rowNumber;
      await tx
        .update(customerImports)
        .set({
          nextRow: last + 1,
          created: sql`${customerImports.created} + ${count.created}`,
          updated: sql`${customerImports.updated} + ${count.updated}`,
          unchanged: sql`${customerImports.unchanged} + ${count.unchanged}`,
          rejected: sql`${customerImports.rejected} + ${count.rejected}`,
          leaseUntil: leaseEnd(),
          updatedAt: now,
        })
        .where(eq(customerImports.id, importId));
      return true;
    });
  }

  /** Uploads whose sender died mid-file never finish: they fail with a reason and their rows go. */
  async function failAbandonedUploads() {
    const now = clock();
    const cutOff = new Date(now.getTime() - abandonedUploadMs);
    const failed = await db
      .update(customerImports)
      .set({ state: 'failed', error: UPLOAD_CUT_OFF, finishedAt: now, updatedAt: now })
      .where(and(eq(customerImports.state, 'receiving'), lt(customerImports.updatedAt, cutOff)))
      .returning({ id: customerImports.id });
    if (failed.length)
      await db.delete(customerImportRows).where(
        inArray(
          customerImportRows.importId,
          failed.map((f) => f.id),
        ),
      );
  }

  async function runJob(importId: number) {
    while (!stopped && (await applyBatch(importId))) {
      // one batch per transaction
    }
    // Stopped between two batches (SIGTERM): the lease is given back, so the next instance (or
    // this one started again) resumes the job at once instead of after the lease runs out.
    if (stopped)
      await db
        .update(customerImports)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(
          and(
            eq(customerImports.id, importId),
            eq(customerImports.leaseOwner, owner),
            eq(customerImports.state, 'running'),
          ),
        );
  }

  /** Claims and applies jobs until none is left to claim. */
  async function lane() {
    // `stopped` is read before each claim: a stopping worker takes no job it would not apply.
    while (!stopped) {
      const id = await claim();
      if (id === null) return;
      log.info('customer import: applying', { importId: id });
      await runJob(id);
    }
  }

  async function pass() {
    await failAbandonedUploads();
    await Promise.all(Array.from({ length: slots }, lane));
  }

  // Lanes run on their own: a job queued while another is being applied starts at once in a free
  // lane (two imports side by side), not after the first one ends.
  const lanes = new Set<Promise<void>>();
  /** A kick came while every lane was busy: a lane that finds nothing claims once more. */
  let pending = false;
  const spawnLane = () => {
    const running = (async () => {
      do {
        pending = false;
        await lane();
      } while (pending && !stopped);
    })()
      .catch((err) => log.error('customer import worker failed', { error: describeError(err) }))
      .finally(() => lanes.delete(running));
    lanes.add(running);
  };
  const sweep = singleRun(
    failAbandonedUploads,
    log,
    'customer import worker: sweeping cut-off uploads failed',
  );
  const kick = () => {
    if (stopped) return;
    pending = true;
    while (lanes.size < slots) spawnLane();
  };

  return {
    heartbeatMs: Math.max(1, Math.floor(abandonedUploadMs / HEARTBEATS_PER_CUT_OFF)),
    kick,
    idle: async () => {
      await sweep.running();
      while (lanes.size) await Promise.all([...lanes]);
    },
    drain: async () => {
      await pass();
    },
    start: (pollMs = 5_000) => {
      stopped = false;
      sweep.kick();
      kick();
      timer = setInterval(() => {
        sweep.kick();
        kick();
      }, pollMs);
      timer.unref();
    },
    stop: () => {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}
