import pg from 'pg';
import { isDatabaseUnavailable } from './errors';

/**
 * How long a request waits for a pool connection before it fails as "unavailable" (a 503): while the
 * database is down or every connection is being re-opened, a request answers within this, never hangs.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The first statements that may run again after they failed on a connection that was already dead:
 * `begin` (the transaction has done nothing yet) and a statement of its own that only reads. A write
 * outside a transaction commits by itself, so it is never repeated: its reply may be what was lost.
 */
const REPEATABLE = /^\s*(begin|select)\b/i;

type Query = (...args: unknown[]) => Promise<unknown>;

const textOf = (config: unknown): string =>
  typeof config === 'string' ? config : (((config as { text?: unknown } | null)?.text as string) ?? '');

/**
 * A node-postgres pool that survives its connections being cut (docs/decisions/025-database-driver.md,
 * 041-server-one-source-and-dead-connections.md).
 *
 * - Every `error` event has a listener: an error on an idle connection, or on one checked out between
 *   two statements of a transaction, is an `error` event, and one nobody listens to ends the process.
 * - A dead idle connection is not a failed request. After a failover or a restart the pool may still
 *   hold idle clients whose connections are gone (the server's goodbye not read yet, or never sent:
 *   a new host answers the next packet with a reset). When the first statement of a checkout fails
 *   with a connection error on such a reused client, and that statement is `begin` or a lone read,
 *   the client is discarded and the statement runs again on the next one (at most `max` times: each
 *   dead idle client is met once, then the pool opens new connections). Nothing is repeated after a
 *   statement that may have changed data, and a client that was just opened is not retried (the
 *   database itself is in trouble: 503).
 * - A client whose connection failed on its first statement goes back to the pool at once, discarded:
 *   drizzle does not release a client whose `begin` failed, which would hold a pool slot for good.
 */
export function createPool(url: string, opts: { max?: number; onError?: (err: Error) => void } = {}) {
  const onError = opts.onError ?? (() => {});
  const max = opts.max ?? 10;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    // Idle connections to a host that vanished (no reset, no FIN) are found dead by TCP keep-alive.
    keepAlive: true,
  });
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));

  const seen = new WeakSet<pg.PoolClient>();
  const connect = pool.connect.bind(pool);
  /** A pool client, and whether it served a checkout before (it was idle, maybe dead). */
  const take = async () => {
    const client = await connect();
    const reused = seen.has(client);
    seen.add(client);
    return { client, reused };
  };

  /** A checked-out client that runs its first statement again on another when its connection was dead. */
  const lend = async (): Promise<pg.PoolClient> => {
    let { client, reused } = await take();
    let first = true;
    let released = false;
    const query: Query = async (...args) => {
      if (!first) return (client.query as Query).apply(client, args);
      first = false;
      for (let attempt = 0; ; attempt++) {
        try {
          return await (client.query as Query).apply(client, args);
        } catch (err) {
          if (!isDatabaseUnavailable(err)) throw err;
          client.release(err as Error);
          released = true;
          if (!reused || attempt >= max || !REPEATABLE.test(textOf(args[0]))) throw err;
          ({ client, reused } = await take());
          released = false;
        }
      }
    };
    const release = (err?: Error | boolean) => {
      if (released) return;
      released = true;
      client.release(err);
    };
    return { query, release } as unknown as pg.PoolClient;
  };

  pool.connect = ((callback?: Parameters<typeof connect>[0]) =>
    callback ? connect(callback) : lend()) as typeof pool.connect;

  const poolQuery = pool.query.bind(pool) as Query;
  pool.query = (async (...args: unknown[]) => {
    if (typeof args.at(-1) === 'function') return poolQuery(...args);
    const client = await lend();
    try {
      const result = await (client.query as Query)(...args);
      client.release();
      return result;
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  }) as typeof pool.query;

  return pool;
}
