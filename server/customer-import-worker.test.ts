import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSuperAdmin, setupTestServer, signIn } from '../tests/setup/server';
import { API_BASE } from './app';
import { createImportWorker } from './customer-import-worker';
import type { Db } from './db/client';
import { customerImports, customers } from './db/schema';

const t = setupTestServer();

/**
 * A worker that dies half way (its process killed: it stops between two statements of a batch and
 * never comes back) leaves a job that a second worker, once the lease has run out, finishes with
 * every row applied exactly once (a real server killed with SIGKILL is not tested yet).
 */
describe('customer import worker', () => {
  it('a worker killed mid-import is taken over after its lease; every row is applied once', async () => {
    const root = await createSuperAdmin(t.db);
    const token = (await signIn(t, root.email, root.password)).accessToken;
    const rows = Array.from({ length: 50 }, (_, i) => `K-${i},Kay${i},Ill,k${i}@mail.test`).join('\n');
    const res = await t.app.request(`${API_BASE}/admin/customers/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: `externalId,firstName,lastName,email\n${rows}\n`,
    });
    const id = ((await res.json()) as { data: { id: number } }).data.id;

    // The first worker dies inside its third batch: the batch's transaction never commits.
    let batches = 0;
    const dying = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop === 'transaction')
          return async (fn: (tx: unknown) => Promise<unknown>) =>
            target.transaction(async (tx) => {
              const out = await fn(tx);
              if (++batches === 3) throw new Error('killed');
              return out;
            });
        return Reflect.get(target, prop, receiver);
      },
    }) as Db;
    const first = createImportWorker({ db: dying, clock: t.clock, batchSize: 10, leaseMs: 60_000 });
    await first.drain().catch(() => undefined);
    const [half] = await t.db.select().from(customerImports).where(eq(customerImports.id, id));
    expect(half).toMatchObject({ state: 'running', created: 20, nextRow: 22 });

    // Another worker cannot take it while the lease holds; after it runs out, it finishes the job.
    const second = createImportWorker({ db: t.db, clock: t.clock, batchSize: 10, leaseMs: 60_000 });
    await second.drain();
    expect((await t.db.select().from(customerImports).where(eq(customerImports.id, id)))[0]!.state).toBe(
      'running',
    );
    t.clock.advance(61_000);
    await second.drain();
    const [done] = await t.db.select().from(customerImports).where(eq(customerImports.id, id));
    expect(done).toMatchObject({ state: 'done', created: 50, updated: 0, unchanged: 0, rejected: 0 });
    const [count] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(customers)
      .where(sql`${customers.externalId} like 'K-%'`);
    expect(count!.n).toBe(50);
  });
});
