import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { API_BASE, createApp } from './app';
import { mountBenchMetrics } from './bench-metrics';
import { openDatabase } from './db/client';
import { createPasswordHasher } from './domain/passwords';
import { resolveJwtSecret } from './domain/settings';
import { findStaffByEmail } from './domain/users';
import { readEnv } from './env';
import { createLogger, describeError } from './log';
import { createMailer, fileMailbox, smtpTransport } from './mail';
import { ensureAdmin, ensureSuperAdminRole } from './seed/admin';
import { DEMO_ADMIN, isEmpty, seedDemo } from './seed/demo';
import { mountSpa } from './spa';
import { createWebhookSender } from './webhook-sender';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIL_RETRY_MS = 30_000;

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

async function main() {
  const env = readEnv();
  const log = createLogger(env.logLevel);
  const hasher = createPasswordHasher();

  const database = await openDatabase(
    env.databaseUrl
      ? { kind: 'postgres', url: env.databaseUrl }
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

  const app = createApp({
    db,
    clock,
    mailer,
    log,
    webhooks,
    config: {
      jwtSecret: await resolveJwtSecret(db, env.jwtSecret),
      accessTokenTtlSeconds: env.accessTokenTtlSeconds,
      refreshTokenTtlDays: env.refreshTokenTtlDays,
      trustProxy: env.trustProxy,
      webhookAllowPrivate: env.webhookAllowPrivate,
      environment: env.environment,
    },
  });

  // Benchmarks only (BENCH_METRICS=1): event-loop delay and RSS for tests/bench/api-load.bench.ts.
  if (env.benchMetrics) mountBenchMetrics(app);

  // The SPA beside the API (server/spa.ts), built once here when missing.
  await buildSpaIfMissing(env.spaDir, log);
  mountSpa(app, env.spaDir);

  const server = serve({ fetch: app.fetch, port: env.port }, (info) => {
    const url = `http://localhost:${info.port}`;
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

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    clearInterval(mailTimer);
    webhooks.stop();
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
      await webhooks.idle();
      await mailer.idle();
      mailer.close();
      await database.close();
      process.exit(0);
    });
    // Idle keep-alive connections would hold close() open.
    (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
