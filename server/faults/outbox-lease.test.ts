import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { startFailoverProxy } from '../../tests/setup/faults';
import { createPartner, createTestClock, isPostgres, openTestDatabase } from '../../tests/setup/server';
import type { Database } from '../db/client';
import { mailOutbox, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { enqueueWebhooks } from '../domain/webhooks';
import { createMailer, enqueueMail, type MailTransport } from '../mail';
import { createWebhookSender } from '../webhook-sender';

/**
 * Issue 33 item 7: after a database connection cut, webhook messages that had been delivered went out
 * again when their lease ran out (60 s later). Here the database becomes unreachable the moment the
 * receiver has the message (every connection cut, new ones refused for 1.5 s, as in a failover), so
 * the sender cannot write "delivered" at once. It must write it once the database is back, and the
 * message must not go out again, however far the clock then moves past the lease. Same for mail.
 *
 * PostgreSQL only: the cut goes through a TCP proxy in front of it (PGlite has no connection to cut).
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

async function databaseBehindProxy() {
  const target = new URL(process.env.TEST_DATABASE_URL!);
  const proxy = await startFailoverProxy({ host: target.hostname, port: Number(target.port || 5432) });
  cleanups.push(() => proxy.close());
  const database: Database = await openTestDatabase({ via: proxy.via, max: 4 });
  cleanups.push(() => database.close());
  /** The database unreachable for `ms`: what is open is cut, new connections are refused. */
  const outage = (ms: number) => {
    proxy.refuse(true);
    proxy.cut();
    setTimeout(() => proxy.refuse(false), ms);
  };
  return { database, outage };
}

describe.skipIf(!isPostgres)('outbox leases across a database connection cut', () => {
  it('a webhook delivered just before the cut is recorded once the database is back, never sent again', async () => {
    const { database, outage } = await databaseBehindProxy();
    const { db } = database;
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      req.on('end', () => {
        outage(1_500);
        res.writeHead(200).end();
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    cleanups.push(() => new Promise<void>((r) => receiver.close(() => r())));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const partner = await createPartner(db);
    await db.insert(webhookEndpoints).values({
      url,
      events: ['visit.recorded'],
      partnerId: partner.id,
      secret: `whsec_${Buffer.alloc(32, 3).toString('base64')}`,
    });
    const clock = createTestClock(new Date());
    await db.transaction((tx) =>
      enqueueWebhooks(tx, { type: 'visit.recorded', partnerId: partner.id, data: { visitId: 1 } }, clock()),
    );

    const sender = createWebhookSender({ db, clock, allowPrivate: true, leaseMs: 60_000, timeoutMs: 5_000 });
    await sender.deliverDue().catch(() => {});
    // Long past the lease: anything not recorded as delivered would be claimed and sent again.
    await new Promise((r) => setTimeout(r, 2_000));
    clock.advance(5 * 60_000);
    await sender.deliverDue().catch(() => {});
    clock.advance(5 * 60_000);
    await sender.deliverDue().catch(() => {});

    expect(received).toHaveLength(1);
    const [row] = await db.select().from(webhookDeliveries);
    expect(row).toMatchObject({ status: 'succeeded', leaseToken: null });
  }, 60_000);

  it('a mail sent just before the cut is recorded once the database is back, never sent again', async () => {
    const { database, outage } = await databaseBehindProxy();
    const { db } = database;
    const sent: number[] = [];
    const transport: MailTransport = {
      describe: 'counting transport',
      send: async (mail) => {
        sent.push(mail.id);
        outage(1_500);
      },
    };
    const clock = createTestClock(new Date());
    const id = await enqueueMail(
      db,
      { to: 'someone@rewardclub.test', subject: 'Hello', text: 'Hi' },
      clock(),
    );
    const mailer = createMailer({ db, transport, clock });
    await mailer.deliverPending().catch(() => {});
    await new Promise((r) => setTimeout(r, 2_000));
    clock.advance(10 * 60_000);
    await mailer.deliverPending().catch(() => {});
    clock.advance(10 * 60_000);
    await mailer.deliverPending().catch(() => {});

    expect(sent).toEqual([id]);
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row!.sentAt).not.toBeNull();
  }, 60_000);
});
