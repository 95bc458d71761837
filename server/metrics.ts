import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db, PoolStats } from './db/client';
import { executeRows } from './db/rows';
import type { RequestSample } from './http/observe';
import { describeError, type Logger, silentLogger } from './log';

/**
 * An outbox whose depth (rows waiting for delivery) is exported as `outbox_depth{outbox="<name>"}`.
 * `pending` is the SQL condition of a waiting row. A table that does not exist (yet) is skipped, so
 * an outbox can be listed here before its migration has run everywhere.
 */
export type OutboxGauge = { name: string; table: string; pending: string };

/** Mail waits until sent or given up (server/mail.ts: 5 attempts). Webhooks: add their outbox here. */
export const OUTBOXES: OutboxGauge[] = [
  { name: 'mail', table: 'mail_outbox', pending: 'sent_at is null and attempts < 5' },
  { name: 'webhooks', table: 'webhook_deliveries', pending: "status = 'pending'" },
];

export type Metrics = {
  registry: Registry;
  /** Counts one answered request (app.ts `onRequest`). */
  observe: (sample: RequestSample) => void;
  /** Serves `GET /metrics` on its own port; resolves once listening. */
  listen: (port: number, host: string) => Promise<Server>;
};

/**
 * The Prometheus registry (prom-client): Node's default process metrics, the HTTP request-duration
 * histogram by method, route pattern and status, the database pool, and the outboxes' depth. It is
 * served on METRICS_PORT only, never on the public port.
 */
export function createMetrics(o: {
  db: Db;
  poolStats: () => PoolStats;
  outboxes?: OutboxGauge[];
  log?: Logger;
  /** Whether the instance is ready (what /readyz says), exported as `app_ready` 1 or 0. */
  ready?: () => Promise<boolean>;
}): Metrics {
  const log = o.log ?? silentLogger;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state (total open, idle, max allowed)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = o.poolStats();
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'max' }, s.max);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a free pool connection',
    registers: [registry],
    collect() {
      this.set(o.poolStats().waiting);
    },
  });

  const ready = o.ready;
  if (ready)
    new Gauge({
      name: 'app_ready',
      help: 'Whether this instance is ready for traffic (1) or not (0): what GET /readyz answers',
      registers: [registry],
      async collect() {
        this.set((await ready().catch(() => false)) ? 1 : 0);
      },
    });

  const outboxes = o.outboxes ?? OUTBOXES;
  new Gauge({
    name: 'outbox_depth',
    help: 'Rows waiting in an outbox for delivery (mail; webhooks when present)',
    labelNames: ['outbox'] as const,
    registers: [registry],
    async collect() {
      for (const box of outboxes) {
        try {
          const [row] = await executeRows<{ n: number | null }>(
            o.db,
            sql.raw(
              `select case when to_regclass('${box.table}') is null then null else (select count(*)::int from ${box.table} where ${box.pending}) end as n`,
            ),
          );
          if (row?.n == null) this.remove({ outbox: box.name });
          else this.set({ outbox: box.name }, row.n);
        } catch (err) {
          // The database is away: the gauge keeps its last value; the scrape still answers.
          log.debug('outbox depth unavailable', { outbox: box.name, error: describeError(err) });
        }
      }
    },
  });

  return {
    registry,
    observe: (s) => {
      duration.observe({ method: s.method, route: s.route, status: String(s.status) }, s.durationMs / 1000);
    },
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        const server = createServer((req, res) => {
          if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
            res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
            return;
          }
          registry.metrics().then(
            (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
            (err) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${describeError(err)}\n`),
          );
        });
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server);
        });
      }),
  };
}
