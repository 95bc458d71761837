import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { API_BASE, createApp } from './app';
import { createApprovalExpiry } from './approval-expiry';
import { mountBenchMetrics } from './bench-metrics';
import { CAMPAIGN_BATCH_SIZE, CAMPAIGN_BATCH_SIZE_PGLITE, createCampaignWorker } from './campaign-worker';
import { createImportWorker } from './customer-import-worker';
import { openDatabase } from './db/client';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock';
import { createPasswordHasher } from './domain/passwords';
import { resolveJwtSecret } from './domain/settings';
import { findStaffByEmail } from './domain/users';
import { readEnv } from './env';
import { createLogger, describeError } from './log';
import { createMailer, fileMailbox, smtpTransport } from './mail';
import { createMetrics } from './metrics';
import { createExpiryNotices } from './reward-expiry-notices';
import { readiness } from './routes/probes';
import { ensureAdmin, ensureSuperAdminRole } from './seed/admin';
import { DEMO_ADMIN, isEmpty, seedDemo } from './seed/demo';
import { mountSpa } from './spa';
import { createWebhookSender } from './webhook-sender';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIL_RETRY_MS = 30_000;
/** After SIGTERM, idle keep-alive connections are closed this much later (see shutdown). */
const IDLE_CLOSE_DELAY_MS = 1_000;
const netClose = NetServer.prototype.close;

async function buildSpaIfMissing(spaDir: string, log: ReturnType<typeof createLogger>): Promise<boolean> {
  if (existsSync(join(spaDir, 'index.html'))) return true;
  log.info('the built SPA is missing: building it with vite (once)', { spaDir });
  try {
    const { build } = await import('vite');
    await build({ root: REPO_ROOT, logLevel: 'warn', build: { outDir: spaDir, emptyOutDir: true } });
  } catch (err) {
    log.error('SPA build failed; serving the API only', {
      error: describeError(err),
    });
  }
  return existsSync(join(spaDir, 'index.html'));
}

/** A start-up failure the operator can fix: one clear sentence, no stack. */
class StartupError extends Error {}

async function main() {
  let env: ReturnType<typeof readEnv>;
  try {
    env = readEnv();
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
  const log = createLogger(env.logLevel);
  const hasher = createPasswordHasher();

  // The embedded database is one process per data directory: a second one would silently lose writes.
  let lock: ReturnType<typeof lockDataDir> | undefined;
  if (!env.databaseUrl) {
    try {
      lock = lockDataDir(env.dataDir);
    } catch (err) {
      throw err instanceof DataDirLockedError ? new StartupError(err.message) : err;
    }
    process.once('exit', () => lock?.release());
  }

  const database = await openDatabase(
    env.databaseUrl
      ? {
          kind: 'postgres',
          url: env.databaseUrl,
          onError: (err) => log.warn('database connection lost', { error: describeError(err) }),
        }
      : { kind: 'pglite', dataDir: join(env.dataDir, 'db') },
  );
  const { db } = database;
  log.info('database ready', { kind: database.kind });

  // Seed an empty database once, even when several instances start together.
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72201)`);
    if (env.seedDemo && (await isEmpty(tx))) {
      const summary = await seedDemo(tx, { hasher });
      log.info('demo data seeded', summary);
    }
    await ensureSuperAdminRole(tx);
    if (env.adminEmail && env.adminPassword) {
      const result = await ensureAdmin(tx, { email: env.adminEmail, password: env.adminPassword, hasher });
      log.info(result === 'created' ? 'admin created' : 'admin already exists', { email: env.adminEmail });
    }
  });

  const clock = () => new Date();
  const transport = env.smtpUrl
    ? smtpTransport(env.smtpUrl, env.mailFrom)
    : fileMailbox(join(env.dataDir, 'mail'), env.mailFrom);
  const mailer = createMailer({ db, transport, clock, log });
  log.info('mail transport', { transport: transport.describe });
  mailer.kick();
  const mailTimer = setInterval(() => mailer.kick(), MAIL_RETRY_MS);
  mailTimer.unref();

  // The webhook outbox (docs/decisions/027): every instance runs a sender; claims never overlap.
  const webhooks = createWebhookSender({ db, clock, log, mailer, allowPrivate: env.webhookAllowPrivate });
  webhooks.start();
  // Customer imports (issue 27): every instance runs a worker; leases keep jobs apart.
  const imports = createImportWorker({ db, clock, log });
  imports.start();
  // Campaigns (issue 35, decision 070): every instance runs a worker; leases keep campaigns apart.
  // Each batch queues reward.issued messages: the webhook sender is woken after it.
  const campaignWorker = createCampaignWorker({
    db,
    clock,
    log,
    batchSize: database.kind === 'pglite' ? CAMPAIGN_BATCH_SIZE_PGLITE : CAMPAIGN_BATCH_SIZE,
    onBatch: () => webhooks.kick(),
  });
  campaignWorker.start();
  // reward.expiring (decision 065): every instance scans; each reward's notice is queued once.
  const expiryNotices = createExpiryNotices({ db, clock, log, queued: webhooks.kick });
  expiryNotices.start();
  // Four eyes (decision 074): what waits for approval too long expires; every instance sweeps.
  const approvalExpiry = createApprovalExpiry({ db, clock, log });
  approvalExpiry.start();

  let stopping = false;
  const metrics =
    env.metricsPort === undefined
      ? undefined
      : createMetrics({
          db,
          poolStats: database.poolStats,
          log,
          ready: async () => (await readiness({ db, stopping: () => stopping })) === 'up',
        });
  const app = createApp({
    db,
    clock,
    mailer,
    log,
    webhooks,
    imports,
    campaigns: campaignWorker,
    onRequest: metrics?.observe,
    stopping: () => stopping,
    config: {
      jwtSecret: await resolveJwtSecret(db, env.jwtSecret),
      accessTokenTtlSeconds: env.accessTokenTtlSeconds,
      refreshTokenTtlDays: env.refreshTokenTtlDays,
      trustProxy: env.trustProxy,
      webhookAllowPrivate: env.webhookAllowPrivate,
      environment: env.environment,
      appUrl: env.appUrl,
    },
  });

  // Benchmarks only (BENCH_METRICS=1): event-loop delay and RSS for tests/bench/api-load.bench.ts.
  if (env.benchMetrics) mountBenchMetrics(app);

  // The SPA beside the API (server/spa.ts). In development (`npm start`) it is built once here when
  // missing; in production it comes from `npm run build` and is never built by the server.
  if (env.production) {
    if (!existsSync(join(env.spaDir, 'index.html')))
      log.warn('the built SPA is missing: serving the API only (run `npm run build`)', {
        spaDir: env.spaDir,
      });
  } else {
    await buildSpaIfMissing(env.spaDir, log);
  }
  mountSpa(app, env.spaDir);

  const metricsServer = metrics ? await metrics.listen(env.metricsPort!, env.metricsHost) : undefined;
  if (metricsServer) log.info('metrics', { url: `http://${env.metricsHost}:${env.metricsPort}/metrics` });

  const server = serve({ fetch: app.fetch, port: env.port, hostname: env.host }, (info) => {
    const url = `http://${env.host && env.host !== '0.0.0.0' ? env.host : 'localhost'}:${info.port}`;
    log.info('listening', { url, pid: process.pid });
    // Production prints no sign-in details, unless the demo data was asked for (SEED_DEMO=true).
    if (env.production && !env.seedDemo) return;
    const lines = [`Reward Club Admin is running at ${url}`, `API: ${url}${API_BASE}`];
    void findStaffByEmail(db, DEMO_ADMIN.email).then((demo) => {
      if (demo) lines.push(`Demo sign-in: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
      if (env.adminEmail) lines.push(`Admin: ${env.adminEmail} (password from ADMIN_PASSWORD)`);
      process.stdout.write(`\n${lines.join('\n')}\n\n`);
    });
  });

  server.on('error', (err: NodeJS.ErrnoException) => {
    const reason =
      err.code === 'EADDRINUSE'
        ? `Port ${env.port} is already in use. Stop the other program or set PORT to a free port.`
        : `The server could not listen on port ${env.port}: ${err.message}`;
    process.stderr.write(`${reason}\n`);
    void database.close().finally(() => process.exit(1));
  });

  /**
   * SIGTERM/SIGINT: /readyz turns 503, the listener closes (new connections are refused, so a proxy
   * tries another instance), requests in flight finish within SHUTDOWN_TIMEOUT_SECONDS (then their
   * connections are closed), the mail run in progress ends, the database closes, exit 0.
   */
  // Once stopping, every answer closes its connection: no keep-alive connection outlives the drain.
  // A request begun before SIGTERM is told too (`Connection: close` when its headers have not gone
  // yet), and its connection is ended as its answer ends, so the process exits right after the last
  // answer instead of waiting for Node's keep-alive timeout (issue 33 item 3).
  // Requests being handled (a client that hung up does not end its handler): the database closes
  // only once none is left, or at the deadline.
  const inFlight = new Set<ServerResponse>();
  let drained: (() => void) | undefined;
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    else res.once('finish', () => res.socket?.end());
  };
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (stopping) closeAfter(res);
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) drained?.();
    });
  });
  const requestsDone = (ms: number) =>
    new Promise<void>((resolve) => {
      if (inFlight.size === 0) return resolve();
      const timer = setTimeout(resolve, ms);
      drained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal, timeoutMs: env.shutdownTimeoutMs });
    for (const res of inFlight) closeAfter(res);
    clearInterval(mailTimer);
    webhooks.stop();
    imports.stop();
    campaignWorker.stop();
    expiryNotices.stop();
    approvalExpiry.stop();
    const http = server as unknown as {
      closeIdleConnections: () => void;
      closeAllConnections: () => void;
    };
    const deadline = setTimeout(() => {
      log.warn('shutdown deadline reached: closing the connections still open');
      http.closeAllConnections();
    }, env.shutdownTimeoutMs);
    deadline.unref();
    // Keep-alive connections with no request in flight are closed after a moment (not at once: a
    // connection accepted just now may be about to carry its first request, a proxy's for instance).
    const idle = setTimeout(() => http.closeIdleConnections(), IDLE_CLOSE_DELAY_MS);
    idle.unref();
    // Stop accepting: net.Server's close, not http.Server's, which (Node >= 19) would also drop at
    // once the connections whose request has not been read yet, a 502 at the proxy.
    const startedAt = Date.now();
    netClose.call(server, async () => {
      clearTimeout(deadline);
      clearTimeout(idle);
      await requestsDone(Math.max(0, env.shutdownTimeoutMs - (Date.now() - startedAt)));
      await webhooks.idle();
      await imports.idle();
      await campaignWorker.idle();
      const force = setTimeout(() => process.exit(1), 5_000);
      force.unref();
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      await mailer.idle();
      mailer.close();
      await database.close();
      lock?.release();
      log.info('stopped', { signal });
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  const text =
    err instanceof StartupError
      ? err.message
      : err instanceof Error
        ? (err.stack ?? err.message)
        : String(err);
  process.stderr.write(`${text}\n`);
  process.exit(1);
});
