/**
 * `npm run bench:large-jobs` (issue 36): the streamed jobs on the large data set. On the PostgreSQL
 * database that `npm run bench:partners` seeded and kept (BENCH_KEEP_DB, 1M or 10M visits), the
 * server as `npm run start:prod` runs it streams the biggest CSV exports (the busy partner's visits,
 * every active customer, the busy partner's eligible customers and points) and then imports 100,000
 * subscriber rows (BENCH_IMPORT_ROWS) beside what is there. Prints, for each: rows, MB, seconds to
 * the last byte, and the server's peak RSS (VmHWM) after it; the imported rows are deleted again so
 * the kept data set stays what bench:partners measures. Goal: RSS ≤ 250 MiB whatever the size (the
 * jobs stream in batches, decision 017); never fails on a figure.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { runOnce } from '../../server/db/client';
import { bearerOf, peakRssMiB, subscriberCsv, uploadImport, waitForImport } from '../setup/customer-import';
import { buildServer, scratchDir, startServerProcess, tinySpaDir } from '../setup/faults';
import { figure } from './figures';
import { BUSY } from './large-seed';
import { BENCH_ADMIN } from './support';

const bench = 'large-jobs';
const kept = process.env.BENCH_KEEP_DB;
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const PREFIX = 'BIGJOBS';
const DATE = '2026-03-01';

if (!kept) {
  console.log(
    'bench:large-jobs runs on a kept large data set: seed one with BENCH_SKIP_PGLITE=1 BENCH_KEEP_DB=<postgres url> npm run bench:partners, then run this with the same BENCH_KEEP_DB.',
  );
  process.exit(0);
}
const client = new pg.Client({ connectionString: kept });
await client.connect();
const visits = Number((await client.query('select count(*)::text as n from visits')).rows[0]?.n ?? 0);
await client.end();
if (visits === 0) throw new Error(`${kept} holds no visits: seed it with bench:partners first`);
const size = `${(visits / 1e6).toLocaleString()}M visits`;

/** The imported rows and what refers to them, so the kept data set is unchanged afterwards. */
async function removeImported() {
  const mine = `(select id from customers where email like '${PREFIX.toLowerCase()}.%')`;
  await runOnce(kept!, `delete from customer_links where customer_id in ${mine}`);
  await runOnce(kept!, `delete from customers where email like '${PREFIX.toLowerCase()}.%'`);
}

const built = buildServer();
const dir = scratchDir('rc-bench-large-jobs-');
const server = await startServerProcess(
  {
    NODE_ENV: 'production',
    DATABASE_URL: kept,
    DATA_DIR: dir,
    SPA_DIR: tinySpaDir(dir),
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
  },
  { built: built.main },
);
try {
  const auth = await bearerOf(server.url, BENCH_ADMIN.email, BENCH_ADMIN.password);
  console.log(
    `\nPostgreSQL, ${size}: server RSS ${peakRssMiB(server.pid).toFixed(0)} MiB after start and sign-in`,
  );
  const exports: [string, string][] = [
    [`visits of the busy partner`, `/admin/partners/visits/export?partnerId=${BUSY}`],
    ['active customers', '/admin/user/customers/export?status=ACTIVE'],
    [
      `eligible customers of the busy partner (${DATE})`,
      `/admin/partners/visits/reward-eligible-users/export?partnerId=${BUSY}&date=${DATE}`,
    ],
    [`points of the busy partner`, `/admin/partners/visits/eligible-users-bypoints/export?partnerId=${BUSY}`],
  ];
  for (const [name, path] of exports) {
    const started = Date.now();
    const res = await fetch(`${server.url}/api/v1${path}`, { headers: auth });
    if (!res.ok || !res.body) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) lines++;
    }
    const seconds = (Date.now() - started) / 1000;
    figure({
      bench,
      name: `CSV export, ${name}, ${size}: ${(lines - 1).toLocaleString()} rows, ${(bytes / 1e6).toFixed(1)} MB, to the last byte`,
      value: seconds,
      unit: 's',
      budget: null,
      target: 'PostgreSQL',
    });
    figure({
      bench,
      name: `server peak RSS (VmHWM) after the export of ${name}, ${size}`,
      value: peakRssMiB(server.pid),
      unit: 'MiB',
      budget: { max: 250 },
      target: 'PostgreSQL',
    });
  }
  await removeImported();
  const started = Date.now();
  const up = await uploadImport(server.url, auth, subscriberCsv(PREFIX, ROWS), 'large-jobs.csv');
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${up.text}`);
  const job = await waitForImport(server.url, auth, up.job.id, (j) => j.state === 'done', {
    timeoutMs: 1_800_000,
    everyMs: 250,
  });
  if (job.rowsDone !== ROWS || job.rejected !== 0)
    throw new Error(`the import did not apply every row: ${JSON.stringify(job)}`);
  figure({
    bench,
    name: `customer import of ${ROWS.toLocaleString()} CSV rows beside the ${size} data set: upload to done`,
    value: (Date.now() - started) / 1000,
    unit: 's',
    budget: { max: 60 },
    target: 'PostgreSQL',
  });
  figure({
    bench,
    name: `server peak RSS (VmHWM) after the exports and the import, ${size}`,
    value: peakRssMiB(server.pid),
    unit: 'MiB',
    budget: { max: 250 },
    target: 'PostgreSQL',
  });
} finally {
  await server.stop();
  await removeImported();
  rmSync(dir, { recursive: true, force: true });
  rmSync(built.dir, { recursive: true, force: true });
}
