import { rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  FAULTS_ENABLED,
  type ServerProcess,
  scratchDir,
  startServerProcess,
  tinySpaDir,
} from '../../tests/setup/faults';

/**
 * Issue 18, the driver decision (docs/decisions/025-database-driver.md): the real server on
 * PostgreSQL, 20 clients reading and writing for 30 s while every one of the server's connections is
 * terminated every 2 s (`pg_terminate_backend`, as a failover or a restart does). Pass: the process
 * never exits, every request gets an answer (a 2xx, or a 503 with Retry-After while the pool
 * reconnects; nothing else, no dropped socket), and every write the server acknowledged is in the
 * database afterwards.
 *
 * Project `server-postgres` (a database of its own on TEST_DATABASE_URL; only that database's
 * connections are terminated). Runs with HARDENING_FAULTS=1 (CI sets it).
 */
const DURATION_MS = Number(process.env.HARDENING_KILL_MS ?? 30_000);
const KILL_EVERY_MS = 2_000;
const CLIENTS = 20;
const JWT_SECRET = 'fault-test-secret-0123456789abcdef0123456789';
const ADMIN = { email: 'kill@rewardclub.test', password: 'Kill#Test2026' };

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

describe.runIf(FAULTS_ENABLED && process.env.TEST_DATABASE_URL)(
  'server connections terminated every 2 s',
  () => {
    it('the process lives, every request is answered, no acknowledged write is lost', async () => {
      const serverUrl = process.env.TEST_DATABASE_URL!;
      const scratch = await createScratchDatabase(serverUrl, 'rc_kill');
      cleanups.push(() => scratch.drop());
      const dir = scratchDir('rc-kill-');
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const server: ServerProcess = await startServerProcess({
        DATA_DIR: dir,
        SPA_DIR: tinySpaDir(dir),
        DATABASE_URL: scratch.url,
        JWT_SECRET,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      });
      cleanups.push(() => server.kill());

      const login = await fetch(`${server.url}/api/v1/admin/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      expect(login.status).toBe(200);
      const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
      const auth = { authorization: `Bearer ${accessToken}` };

      // The killer: its own connection to the shared server, terminating only the scratch database's.
      const killer = new pg.Client({ connectionString: serverUrl });
      killer.on('error', () => {});
      await killer.connect();
      cleanups.push(() => killer.end().catch(() => {}));
      const dbName = new URL(scratch.url).pathname.slice(1);
      let kills = 0;
      let terminated = 0;
      let lastKill: Promise<unknown> = Promise.resolve();
      const killTimer = setInterval(() => {
        kills++;
        lastKill = killer
          .query(
            'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [dbName],
          )
          .then((r) => {
            terminated += (r.rows[0] as { n: number }).n;
          });
      }, KILL_EVERY_MS);
      cleanups.push(() => clearInterval(killTimer));

      const acknowledged: string[] = [];
      const failures: string[] = [];
      const statuses = new Map<string, number>();
      let seq = 0;
      const endAt = Date.now() + DURATION_MS;
      const reads = ['/admin/user/get-roles', '/admin/partners', '/user/profile', '/admin/user/activities'];

      const clientLoop = async (n: number) => {
        for (let i = 0; Date.now() < endAt; i++) {
          const write = i % 2 === 0;
          const name = `Kill role ${n}-${seq++}`;
          const path = write ? '/admin/user/create-role' : reads[i % reads.length]!;
          let status = 0;
          let text = '';
          let retryAfter: string | null = null;
          try {
            const res = await fetch(`${server.url}/api/v1${path}`, {
              method: write ? 'POST' : 'GET',
              headers: write ? { ...auth, 'content-type': 'application/json' } : auth,
              body: write ? JSON.stringify({ roleName: name, permissionIds: [1] }) : undefined,
              signal: AbortSignal.timeout(15_000),
            });
            status = res.status;
            retryAfter = res.headers.get('retry-after');
            text = await res.text();
          } catch (err) {
            failures.push(`${path}: no answer (${(err as Error).message})`);
            continue;
          }
          const key = `${write ? 'write' : 'read'} ${status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          if (status === 503 && retryAfter) {
            await new Promise((r) => setTimeout(r, 50));
            continue;
          }
          if (status < 200 || status >= 300) failures.push(`${path}: ${status} ${text.slice(0, 160)}`);
          else if (write) acknowledged.push(name);
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, n) => clientLoop(n)));
      clearInterval(killTimer);
      await lastKill; // a round may have cut the pool's idle connections just as the clients stopped
      const alive = server.alive();
      const output = server.output();

      // Every acknowledged role is in the database.
      const check = new pg.Client({ connectionString: scratch.url });
      await check.connect();
      const { rows } = await check.query<{ name: string }>('select name from roles where name like $1', [
        'Kill role %',
      ]);
      await check.end();
      const stored = new Set(rows.map((r) => r.name));
      const lost = acknowledged.filter((name) => !stored.has(name));

      // And the server still serves: the last round may have cut the pool's idle connections, and
      // the next request runs on a live one all the same (decision 041), not a 503.
      const after = alive ? await fetch(`${server.url}/api/v1/user/profile`, { headers: auth }) : null;
      if (alive) await server.stop();

      const counts = [...statuses].map(([k, v]) => `${k}: ${v}`).join(', ');
      console.log(
        `[figure] connection kill: ${kills} rounds terminated ${terminated} server connections in ${DURATION_MS / 1000} s; ` +
          `${counts}; ${acknowledged.length} acknowledged writes, ${lost.length} lost; ${failures.length} failed requests; ` +
          `process ${alive ? 'alive' : 'EXITED'}, next request ${after?.status}`,
      );
      expect(alive, `the server exited:\n${output.slice(-3000)}`).toBe(true);
      expect(failures.slice(0, 20)).toEqual([]);
      expect(lost).toEqual([]);
      expect(terminated).toBeGreaterThan(kills); // connections really were cut, round after round
      expect(acknowledged.length).toBeGreaterThan(100);
      expect(after?.status).toBe(200);
    }, 180_000);
  },
);
