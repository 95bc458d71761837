import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListData } from '../contract/envelope';
import type { CreatedWebhook, WebhookDelivery } from '../contract/webhooks';
import { createScratchDatabase } from '../tests/setup/faults';
import {
  createCustomer,
  createPartner,
  createSuperAdmin,
  isPostgres,
  setupTestServer,
  signIn,
} from '../tests/setup/server';
import { API_BASE, createApp } from './app';
import { type Database, openDatabase } from './db/client';
import { events, mailOutbox, webhookDeliveries, webhookEndpoints } from './db/schema';
import { enqueueWebhooks, WEBHOOK_BACKOFF_MS, WEBHOOK_MAX_ATTEMPTS } from './domain/webhooks';
import { silentLogger } from './log';
import { createWebhookSender, safePost } from './webhook-sender';

/**
 * The webhook outbox end to end (docs/decisions/027): real changes through the API write the
 * messages in their own transaction, a sender posts them to a real HTTP receiver on this machine
 * (WEBHOOK_ALLOW_PRIVATE), and the receiver verifies them with the `standardwebhooks` package.
 */

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
type Receiver = {
  url: string;
  received: Received[];
  respond: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  close: () => Promise<void>;
};

async function startReceiver(): Promise<Receiver> {
  const receiver = {
    received: [] as Received[],
    respond: (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(204).end();
    },
  } as Receiver;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    receiver.received.push({
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    });
    receiver.respond(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return receiver;
}

const t = setupTestServer({ config: { webhookAllowPrivate: true } });
let token: string;
let receiver: Receiver;
let partnerId: number;
let customerId: number;
let adminEmail: string;
let adminPassword: string;
/** A fresh session: the tests move the clock by hours, past the access token's 15 minutes. */
const freshToken = async () => {
  token = (await signIn(t, adminEmail, adminPassword)).accessToken;
};

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  adminEmail = admin.email;
  adminPassword = admin.password;
  partnerId = (await createPartner(t.db, { organizationName: 'Mama Put Kitchen' })).id;
  customerId = (await createCustomer(t.db)).id;
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(freshToken);

const subscribe = async (path: string, events: string[] = ['visit.recorded']) => {
  const res = await t.request<CreatedWebhook>('POST', '/admin/webhooks', {
    token,
    json: { url: `${receiver.url}${path}`, events, partnerId },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
};

const recordVisit = async () => {
  const res = await t.request<{ id: number }>('POST', '/user/visits', {
    token,
    json: {
      partnerId,
      customerId,
      attendantName: 'Bisi',
      visitDate: '2026-03-01T10:00:00.000Z',
      items: [{ name: 'Jollof rice', quantity: 2, price: 2500 }],
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
};

const deliveriesOf = async (webhookId: number) => {
  const res = await t.request<ListData<WebhookDelivery>>('GET', `/admin/webhooks/${webhookId}/deliveries`, {
    token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data!.records;
};

const receivedAt = (path: string) => receiver.received.filter((r) => r.path === path);

describe('webhook deliveries', () => {
  it('a recorded visit is queued in its own transaction and delivered signed; the receiver verifies it', async () => {
    const hook = await subscribe('/verify');
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const visitId = await recordVisit();
    // Queued with the visit, before any sender ran.
    const queued = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, hook.id));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ status: 'pending', eventType: 'visit.recorded' });

    // Real time here: a receiver refuses timestamps more than 5 minutes from its own clock.
    const sender = createWebhookSender({ db: t.db, allowPrivate: true, log: silentLogger });
    expect(await sender.deliverDue()).toEqual({ sent: 1, failed: 0 });
    const [got] = receivedAt('/verify');
    expect(got).toBeDefined();
    const headers = {
      'webhook-id': String(got!.headers['webhook-id']),
      'webhook-timestamp': String(got!.headers['webhook-timestamp']),
      'webhook-signature': String(got!.headers['webhook-signature']),
    };
    // What a receiver does: the standardwebhooks package with the secret it was given once.
    const payload = new Webhook(hook.secret).verify(got!.body, headers) as {
      type: string;
      data: { visitId: number; partnerId: number; totalAmount: number };
    };
    expect(payload.type).toBe('visit.recorded');
    expect(payload.data).toMatchObject({ visitId, partnerId, customerId, totalAmount: 5000 });
    expect(headers['webhook-id']).toBe(queued[0]!.messageId);
    expect(got!.headers['content-type']).toBe('application/json');
    // A forged body or another secret fails verification.
    expect(() => new Webhook(hook.secret).verify(got!.body.replace('5000', '9000'), headers)).toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got!.body, headers),
    ).toThrow();

    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'succeeded', nextAttemptAt: null, eventType: 'visit.recorded' });
    expect(delivery!.attempts).toEqual([
      expect.objectContaining({ statusCode: 204, error: null, nextRetryAt: null }),
    ]);
    await t.request('DELETE', `/admin/webhooks/${hook.id}`, { token });
  });

  it('a failure is retried with the same webhook-id on the backoff (first retry within 30 s); the log shows each attempt', async () => {
    const hook = await subscribe('/flaky');
    let calls = 0;
    receiver.respond = (req, res) => {
      if (req.url === '/flaky' && ++calls <= 2) res.writeHead(500).end('busy');
      else res.writeHead(200).end('ok');
    };
    await recordVisit();
    const sender = createWebhookSender({ db: t.db, clock: t.clock, allowPrivate: true });
    expect(await sender.deliverDue()).toEqual({ sent: 0, failed: 1 });
    const first = (await deliveriesOf(hook.id))[0]!;
    expect(first.status).toBe('pending');
    const wait = Date.parse(first.nextAttemptAt!) - Date.parse(first.attempts[0]!.at);
    expect(wait).toBe(WEBHOOK_BACKOFF_MS[0]);
    expect(wait).toBeLessThanOrEqual(30_000);

    // Not due yet: nothing is sent.
    expect(await sender.deliverDue()).toEqual({ sent: 0, failed: 0 });
    t.clock.advance(WEBHOOK_BACKOFF_MS[0]);
    expect(await sender.deliverDue()).toEqual({ sent: 0, failed: 1 });
    t.clock.advance(WEBHOOK_BACKOFF_MS[1]);
    expect(await sender.deliverDue()).toEqual({ sent: 1, failed: 0 });

    const got = receivedAt('/flaky');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    // Each attempt is signed at its own time.
    expect(new Set(got.map((g) => g.headers['webhook-timestamp'])).size).toBe(3);

    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery!.status).toBe('succeeded');
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([200, 500, 500]);
    expect(delivery!.attempts.map((a) => a.error)).toEqual([null, 'HTTP 500', 'HTTP 500']);
    expect(delivery!.attempts[2]!.nextRetryAt).toBe(
      new Date(Date.parse(delivery!.attempts[2]!.at) + 5_000).toISOString(),
    );
    for (const a of delivery!.attempts) expect(a.durationMs).toBeGreaterThanOrEqual(0);
    await t.request('DELETE', `/admin/webhooks/${hook.id}`, { token });
  });

  it('after about a day of failures the delivery fails, the endpoint is disabled and the club told; re-enabled, a replay goes with the same id', async () => {
    const hook = await subscribe('/down');
    receiver.respond = (req, res) => {
      if (req.url === '/down') res.writeHead(503).end();
      else res.writeHead(200).end();
    };
    await recordVisit();
    const mailer = t.mailer;
    const sender = createWebhookSender({ db: t.db, clock: t.clock, allowPrivate: true, mailer });
    const started = t.clock().getTime();
    for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) {
      expect(await sender.deliverDue(), `attempt ${i + 1}`).toEqual({ sent: 0, failed: 1 });
      if (i < WEBHOOK_BACKOFF_MS.length) t.clock.advance(WEBHOOK_BACKOFF_MS[i]!);
    }
    await freshToken();
    const span = t.clock().getTime() - started;
    expect(span).toBeGreaterThan(20 * 3_600_000);
    expect(span).toBeLessThan(30 * 3_600_000);
    expect(receivedAt('/down')).toHaveLength(WEBHOOK_MAX_ATTEMPTS);

    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(delivery!.attempts[0]!.nextRetryAt).toBeNull();
    const detail = await t.request<{ enabled: boolean; disabledReason: string }>(
      'GET',
      `/admin/webhooks/${hook.id}`,
      {
        token,
      },
    );
    expect(detail.body.data).toMatchObject({ enabled: false });
    expect(detail.body.data!.disabledReason).toContain('HTTP 503');
    const [event] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.entity, 'webhook'), eq(events.entityId, String(hook.id))))
      .orderBy(events.id)
      .then((rows) => rows.filter((r) => r.action.startsWith('Disabled webhook')));
    expect(event?.action).toBe(`Disabled webhook ${receiver.url}/down after its deliveries kept failing`);
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, adminEmail));
    expect(mails.map((m) => m.subject)).toContain('A webhook endpoint was disabled');

    // Nothing more is queued for a disabled endpoint, and a replay must wait for it to be enabled.
    await recordVisit();
    expect(
      await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id)),
    ).toHaveLength(1);
    const refused = await t.request('POST', `/admin/webhooks/${hook.id}/deliveries/${delivery!.id}/replay`, {
      token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');

    receiver.respond = (_req, res) => {
      res.writeHead(200).end();
    };
    const enabled = await t.request('PATCH', `/admin/webhooks/${hook.id}`, {
      token,
      json: { enabled: true },
    });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledAt: null });
    const replay = await t.request<WebhookDelivery>(
      'POST',
      `/admin/webhooks/${hook.id}/deliveries/${delivery!.id}/replay`,
      { token },
    );
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ status: 'pending', messageId: delivery!.messageId });
    expect(await sender.deliverDue()).toEqual({ sent: 1, failed: 0 });
    const last = receivedAt('/down').at(-1)!;
    expect(last.headers['webhook-id']).toBe(delivery!.messageId);
    await t.request('DELETE', `/admin/webhooks/${hook.id}`, { token });
  });

  it("survives a restart: queued with no sender running, delivered by a new app instance; a dead sender's lease expires", async () => {
    const hook = await subscribe('/restart');
    await recordVisit();
    // A sender claimed it and died mid-post: its lease holds the message for a while.
    await t.db
      .update(webhookDeliveries)
      .set({ leaseUntil: new Date(t.clock().getTime() + 60_000), leaseToken: 'a-sender-that-died' })
      .where(eq(webhookDeliveries.endpointId, hook.id));
    // "Restart": a new app and sender over the same database, as `npm start` builds them.
    const sender = createWebhookSender({ db: t.db, clock: t.clock, allowPrivate: true });
    const app = createApp({ db: t.db, clock: t.clock, mailer: t.mailer, config: t.config, webhooks: sender });
    expect(await sender.deliverDue()).toEqual({ sent: 0, failed: 0 });
    t.clock.advance(60_001);
    expect(await sender.deliverDue()).toEqual({ sent: 1, failed: 0 });
    await freshToken();
    const res = await app.request(`${API_BASE}/admin/webhooks/${hook.id}/deliveries`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const [delivery] = ((await res.json()) as { data: ListData<WebhookDelivery> }).data.records;
    expect(delivery).toMatchObject({ status: 'succeeded' });
    expect(receivedAt('/restart').map((r) => r.headers['webhook-id'])).toEqual([delivery!.messageId]);
    await t.request('DELETE', `/admin/webhooks/${hook.id}`, { token });
  });

  it('after a secret rotation both secrets verify the same delivery for 24 hours; after that only the new one', async () => {
    const hook = await subscribe('/rotated');
    const rotatedAt = t.clock().getTime();
    const rotated = await t.request<CreatedWebhook>('POST', `/admin/webhooks/${hook.id}/rotate-secret`, {
      token,
    });
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret = rotated.body.data!.secret;
    const sender = createWebhookSender({ db: t.db, clock: t.clock, allowPrivate: true });
    /** The receiver's clock reads the sender's: the package refuses a timestamp 5 minutes off its own. */
    const verify = (secret: string, got: Received) => {
      const now = vi.spyOn(Date, 'now').mockReturnValue(t.clock().getTime());
      try {
        return new Webhook(secret).verify(got.body, {
          'webhook-id': String(got.headers['webhook-id']),
          'webhook-timestamp': String(got.headers['webhook-timestamp']),
          'webhook-signature': String(got.headers['webhook-signature']),
        }) as { type: string };
      } finally {
        now.mockRestore();
      }
    };

    // Within the overlap (its last minute): one delivery, two signatures, the old one first.
    t.clock.set(new Date(rotatedAt + 24 * 3_600_000 - 60_000));
    await freshToken();
    await recordVisit();
    expect(await sender.deliverDue()).toEqual({ sent: 1, failed: 0 });
    const during = receivedAt('/rotated').at(-1)!;
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((sig) => sig.startsWith('v1,'))).toBe(true);
    expect(verify(hook.secret, during).type).toBe('visit.recorded');
    expect(verify(newSecret, during).type).toBe('visit.recorded');
    // Each signature is the one of its secret, the old one first (what a receiver may rely on).
    const id = String(during.headers['webhook-id']);
    const at = new Date(Number(during.headers['webhook-timestamp']) * 1000);
    expect(signatures).toEqual([
      new Webhook(hook.secret).sign(id, at, during.body),
      new Webhook(newSecret).sign(id, at, during.body),
    ]);

    // Once the 24 hours are over: the new secret only.
    t.clock.set(new Date(rotatedAt + 24 * 3_600_000));
    await freshToken();
    await recordVisit();
    expect(await sender.deliverDue()).toEqual({ sent: 1, failed: 0 });
    const after = receivedAt('/rotated').at(-1)!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(newSecret, after).type).toBe('visit.recorded');
    expect(() => verify(hook.secret, after)).toThrow('No matching signature found');
    await t.request('DELETE', `/admin/webhooks/${hook.id}`, { token });
  });

  it("only subscribed events of the endpoint's partner are queued", async () => {
    const other = await createPartner(t.db);
    const hook = await subscribe('/issued-only', ['reward.issued']);
    const otherHook = await t.request<CreatedWebhook>('POST', '/admin/webhooks', {
      token,
      json: { url: `${receiver.url}/other`, events: ['visit.recorded'], partnerId: other.id },
    });
    await recordVisit();
    expect(
      await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id)),
    ).toEqual([]);
    expect(
      await t.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, otherHook.body.data!.id)),
    ).toEqual([]);
    await t.request('DELETE', `/admin/webhooks/${hook.id}`, { token });
    await t.request('DELETE', `/admin/webhooks/${otherHook.body.data!.id}`, { token });
  });
});

describe('safe delivery', () => {
  const insertEndpoint = async (url: string) => {
    const [row] = await t.db
      .insert(webhookEndpoints)
      .values({
        url,
        events: ['visit.recorded'],
        partnerId,
        secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      })
      .returning();
    return row!;
  };
  const deliverOnce = async (url: string, opts: { allowPrivate?: boolean; timeoutMs?: number } = {}) => {
    const endpoint = await insertEndpoint(url);
    await t.db.transaction((tx) =>
      enqueueWebhooks(tx, { type: 'visit.recorded', partnerId, data: { visitId: 1 } }, t.clock()),
    );
    const sender = createWebhookSender({
      db: t.db,
      clock: t.clock,
      allowPrivate: opts.allowPrivate ?? false,
      timeoutMs: opts.timeoutMs,
    });
    await sender.deliverDue();
    const [delivery] = await deliveriesOf(endpoint.id);
    await t.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    // Other endpoints of the partner took the same event: drop theirs too.
    await t.db.delete(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'));
    return delivery!.attempts[0]!;
  };

  it.each([
    [
      'a name resolving to loopback',
      () => `http://localhost:${new URL(receiver.url).port}/ssrf`,
      /\((127\.0\.0\.1|::1)\)/,
    ],
    ['a loopback address', () => `${receiver.url}/ssrf`, '127.0.0.1'],
    ['IPv6 loopback', () => 'http://[::1]:9/ssrf', '::1'],
    [
      'the cloud metadata address (link-local)',
      () => 'http://169.254.169.254/latest/meta-data',
      '169.254.169.254',
    ],
    ['a private network', () => 'http://10.1.2.3/hook', '10.1.2.3'],
    ['an IPv4-mapped IPv6 loopback', () => 'http://[::ffff:127.0.0.1]:9/hook', '::ffff:7f00:1'],
  ])('refuses %s at delivery, without connecting', async (_name, url, shown) => {
    const before = receiver.received.length;
    const attempt = await deliverOnce(url());
    expect(attempt.statusCode).toBeNull();
    expect(attempt.error).toContain('private or reserved address');
    expect(attempt.error).toMatch(shown);
    expect(receiver.received.length).toBe(before);
  });

  it('does not follow a redirect', async () => {
    receiver.respond = (req, res) => {
      if (req.url === '/moved') res.writeHead(302, { location: `${receiver.url}/elsewhere` }).end();
      else res.writeHead(200).end();
    };
    const attempt = await deliverOnce(`${receiver.url}/moved`, { allowPrivate: true });
    expect(attempt).toMatchObject({ statusCode: 302, error: 'redirect (302) not followed' });
    expect(receivedAt('/elsewhere')).toEqual([]);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    receiver.respond = () => {}; // never answers
    const attempt = await deliverOnce(`${receiver.url}/silent`, { allowPrivate: true, timeoutMs: 300 });
    expect(attempt).toMatchObject({ statusCode: null, error: 'no answer within 300 ms' });
    receiver.respond = (_req, res) => {
      res.writeHead(200).end();
    };
  });

  it('reads at most the capped part of an answer', async () => {
    receiver.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(1_000_000));
    };
    const res = await safePost(`${receiver.url}/big`, {}, '{}', {
      allowPrivate: true,
      timeoutMs: 5_000,
      maxResponseBytes: 4096,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.length).toBe(4096);
    receiver.respond = (_req, res2) => {
      res2.writeHead(200).end();
    };
  });
});

describe('several instances', () => {
  it('two senders on one database never deliver one message twice', async () => {
    // On PostgreSQL: two connection pools, as two server processes would have. On PGlite: one handle.
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | null = null;
    const handles: Database[] = [];
    if (isPostgres) {
      scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'rc_webhooks');
      handles.push(await openDatabase({ kind: 'postgres', url: scratch.url, max: 4 }));
      handles.push(await openDatabase({ kind: 'postgres', url: scratch.url, max: 4 }));
    }
    const dbA = handles[0]?.db ?? t.db;
    const dbB = handles[1]?.db ?? t.db;
    try {
      const partner = await createPartner(dbA);
      const [endpoint] = await dbA
        .insert(webhookEndpoints)
        .values({
          url: `${receiver.url}/parallel`,
          events: ['reward.issued'],
          partnerId: partner.id,
          secret: `whsec_${Buffer.alloc(32, 2).toString('base64')}`,
        })
        .returning();
      const MESSAGES = 24;
      for (let i = 0; i < MESSAGES; i++) {
        await dbA.transaction((tx) =>
          enqueueWebhooks(
            tx,
            { type: 'reward.issued', partnerId: partner.id, data: { rewardId: i } },
            new Date(),
          ),
        );
      }
      receiver.respond = (_req, res) => {
        setTimeout(() => res.writeHead(200).end(), 20);
      };
      const a = createWebhookSender({ db: dbA, allowPrivate: true, batchSize: 3 });
      const b = createWebhookSender({ db: dbB, allowPrivate: true, batchSize: 3 });
      await Promise.all([a.deliverDue(), b.deliverDue()]);
      const ids = receivedAt('/parallel').map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(MESSAGES);
      expect(new Set(ids).size).toBe(MESSAGES);
      const rows = await dbA
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint!.id));
      expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
      if (!isPostgres) await t.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint!.id));
    } finally {
      receiver.respond = (_req, res) => {
        res.writeHead(200).end();
      };
      for (const h of handles) await h.close();
      await scratch?.drop();
    }
  });
});
