// `npm run test:pgbouncer` (part of `npm run validate`): a named part of the server suite on PostgreSQL
// through Debian's PgBouncer in transaction pooling mode (issue 33; docs/operations.md, PgBouncer).
// PgBouncer runs on a free 127.0.0.1 port in front of TEST_DATABASE_URL's server; the tests create and
// drop their databases directly and run every query through it (TEST_PGBOUNCER, tests/setup/server.ts).
// The files cover what transaction pooling breaks when misused: advisory locks (the migration lock,
// rate limits, password attempts), transactions with FOR UPDATE SKIP LOCKED (the outboxes), the
// unnamed prepared statements of node-postgres, and idempotent replays. The product issues no
// session-level SET and no LISTEN/NOTIFY (a test in the list greps the server for them).
// On Debian as root PgBouncer is installed when missing, as scripts/ensure-nginx.mjs does nginx.
import { execSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const PGBOUNCER_TESTS = [
  'server/db/migrate-lock.test.ts',
  'server/db/pooler-safe.test.ts',
  'server/domain/rate-limit.test.ts',
  'server/routes/auth.test.ts',
  'server/routes/redemption.test.ts',
  'server/webhook-sender.test.ts',
  'server/mail.test.ts',
  'server/domain/idempotency.test.ts',
];

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  console.log(
    'test:pgbouncer: TEST_DATABASE_URL is not set: no PostgreSQL to put PgBouncer in front of; nothing run.',
  );
  process.exit(0);
}

const BIN = process.env.PGBOUNCER_PATH || '/usr/sbin/pgbouncer';
if (!existsSync(BIN)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.env.PGBOUNCER_PATH || !isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `No PgBouncer at ${BIN}: install it (Debian: apt-get install pgbouncer) or set PGBOUNCER_PATH.`,
    );
    process.exit(1);
  }
  console.log('test:pgbouncer: installing Debian package "pgbouncer" (one time)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execSync('apt-get update -qq', { stdio: 'inherit', env });
  execSync('apt-get install -y -qq --no-install-recommends pgbouncer', { stdio: 'inherit', env });
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

const target = new URL(serverUrl);
const user = decodeURIComponent(target.username || 'postgres');
const password = decodeURIComponent(target.password || '');
const port = await freePort();
const dir = mkdtempSync(join(tmpdir(), 'rc-pgbouncer-'));
chmodSync(dir, 0o755);
const ini = join(dir, 'pgbouncer.ini');
const users = join(dir, 'userlist.txt');
writeFileSync(users, `"${user}" "${password}"\n`, { mode: 0o644 });
writeFileSync(
  ini,
  [
    '[databases]',
    `* = host=${target.hostname} port=${target.port || 5432}${password ? ` password=${password}` : ''}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'pool_mode = transaction',
    `auth_type = ${password ? 'md5' : 'trust'}`,
    `auth_file = ${users}`,
    'max_client_conn = 500',
    'default_pool_size = 20',
    // node-postgres sends none of these by default; a client that does is not refused.
    'ignore_startup_parameters = extra_float_digits,options,statement_timeout',
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n'),
  { mode: 0o644 },
);

// PgBouncer refuses to run as root: as root, it runs as the unprivileged `nobody`.
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let bouncerLog = '';
const bouncer = spawn(BIN, [ini], {
  stdio: ['ignore', 'pipe', 'pipe'],
  ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
});
bouncer.stdout.on('data', (d) => {
  bouncerLog += d;
});
bouncer.stderr.on('data', (d) => {
  bouncerLog += d;
});
const stopBouncer = () => {
  if (bouncer.exitCode === null) bouncer.kill('SIGTERM');
};
process.on('exit', () => {
  stopBouncer();
  rmSync(dir, { recursive: true, force: true });
});

// Ready once it accepts a query.
const deadline = Date.now() + 20_000;
for (;;) {
  if (bouncer.exitCode !== null) {
    console.error(`test:pgbouncer: PgBouncer exited (${bouncer.exitCode}):\n${bouncerLog}`);
    process.exit(1);
  }
  const probe = new URL(serverUrl);
  probe.hostname = '127.0.0.1';
  probe.port = String(port);
  const client = new pg.Client({ connectionString: probe.toString(), connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  const error = await client.connect().then(
    () => client.query('select 1').then(() => null),
    (err) => err,
  );
  await client.end().catch(() => {});
  if (!error) break;
  if (Date.now() > deadline) {
    console.error(`test:pgbouncer: PgBouncer did not answer within 20 s: ${error.message}`);
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 200));
}
console.log(
  `test:pgbouncer: PgBouncer (transaction pooling) on 127.0.0.1:${port}; ${process.argv.length > 2 ? process.argv.length - 2 : PGBOUNCER_TESTS.length} files through it`,
);

// `npm run test:pgbouncer -- <files>` runs those instead.
const files = process.argv.length > 2 ? process.argv.slice(2) : PGBOUNCER_TESTS;
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--project', 'server-postgres', ...files],
  { stdio: 'inherit', env: { ...process.env, TEST_PGBOUNCER: `127.0.0.1:${port}` } },
);
stopBouncer();
if (run.status !== 0)
  console.error(`test:pgbouncer: PgBouncer's log:\n${bouncerLog.split('\n').slice(-40).join('\n')}`);
process.exit(run.status ?? 1);
