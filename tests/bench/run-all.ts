/**
 * `npm run bench`: every benchmark script of package.json (`bench:*`), one after another, each as a
 * child process writing its figures (tests/bench/figures.ts) to one fresh file; then ONE table of
 * them all: figure, value, budget, within budget, target, and the machine they came from.
 *
 * A bench that fails (non-zero exit) is a row of the table and makes the exit code non-zero; a
 * missed budget is printed, never a failure. PostgreSQL figures come when TEST_DATABASE_URL (or a
 * local PostgreSQL at postgres://postgres@127.0.0.1:5432) answers; otherwise those benches print
 * PGlite only. The SPA is built once (by bench:bundle) and reused by bench:lighthouse, bench:offline and
 * bench:slow-link.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { budgetText, type Figure, machine, withinBudget } from './figures';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The order they run in: quick ones first, the long API load last. */
const ORDER = [
  'bench:bundle',
  'bench:lighthouse',
  'bench:offline',
  'bench:slow-link',
  'bench:lists',
  'bench:partners',
  'bench:prod',
  'bench:import',
  'bench:campaign',
  'bench:api',
];

const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  scripts: Record<string, string>;
};
/** BENCH_ONLY=bench:bundle,bench:offline runs only those. */
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const benches = [
  ...ORDER.filter((name) => name in scripts),
  ...Object.keys(scripts).filter((name) => name.startsWith('bench:') && !ORDER.includes(name)),
].filter((name) => !only || only.includes(name));

const figuresFile = fileURLToPath(new URL(`../.tmp/bench/run-${Date.now()}.jsonl`, import.meta.url));
mkdirSync(dirname(figuresFile), { recursive: true });
rmSync(figuresFile, { force: true });

const failures: { bench: string; why: string }[] = [];
const started = Date.now();
let spaBuilt = false;
for (const bench of benches) {
  console.log(`\n===== npm run ${bench} =====`);
  const t0 = Date.now();
  const run = spawnSync('npm', ['run', '--silent', bench], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      BENCH_FIGURES_FILE: figuresFile,
      // The SPA benches measure the same build: bench:bundle makes it, the others reuse it.
      ...(spaBuilt ? { BENCH_SKIP_BUILD: '1' } : {}),
    },
  });
  if (bench === 'bench:bundle' && run.status === 0) spaBuilt = true;
  const seconds = ((Date.now() - t0) / 1000).toFixed(0);
  if (run.status !== 0)
    failures.push({ bench, why: run.signal ? `killed by ${run.signal}` : `exit code ${run.status}` });
  console.log(`===== ${bench}: ${run.status === 0 ? 'done' : 'FAILED'} in ${seconds} s =====`);
}

const figures: Figure[] = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Figure)
  : [];

const rows: Record<string, string>[] = figures.map((f) => ({
  figure: `${f.bench}: ${f.name}`,
  value: `${f.value} ${f.unit}`,
  budget: budgetText(f.budget, f.unit),
  'within budget': f.budget ? (withinBudget(f.value, f.budget) ? 'yes' : 'NO') : '-',
  target: f.target,
}));
for (const { bench, why } of failures)
  rows.push({
    figure: `${bench}: the bench FAILED (${why})`,
    value: '-',
    budget: '-',
    'within budget': '-',
    target: '-',
  });

console.log(`\nBenchmarks: ${benches.join(', ')} (${((Date.now() - started) / 60_000).toFixed(1)} min)`);
console.log(`Machine: ${machine()}`);
console.table(rows);
const over = figures.filter((f) => f.budget && !withinBudget(f.value, f.budget)).length;
console.log(
  `${figures.length} figures, ${over} over budget; ${failures.length} bench(es) failed. Figures: ${figuresFile}`,
);
process.exit(failures.length ? 1 : 0);
