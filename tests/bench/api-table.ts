/**
 * The API figures of a bench run as the Markdown tables of docs/performance.md: seeding seconds per
 * part and target, then one row per endpoint, connections and target (req/s, p50, p99 against its
 * budget, errors against theirs, the server's event-loop delay p99 and RSS).
 *
 * `npx tsx tests/bench/api-table.ts [figures.jsonl]` (default: the newest tests/.tmp/bench/run-*.jsonl,
 * else tests/.tmp/bench/figures.jsonl).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Figure, withinBudget } from './figures';

const dir = fileURLToPath(new URL('../.tmp/bench/', import.meta.url));
const newestRun = () =>
  readdirSync(dir)
    .filter((f) => /^run-\d+\.jsonl$/.test(f))
    .sort()
    .at(-1);
const file = process.argv[2] ?? `${dir}${newestRun() ?? 'figures.jsonl'}`;
const figures = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Figure)
  .filter((f) => f.bench === 'api-load');

const targets = [...new Set(figures.map((f) => f.target))];
const seedParts = [
  ...new Set(figures.filter((f) => f.name.startsWith('seed: ')).map((f) => f.name.slice(6))),
];
console.log(`| part | ${targets.join(' | ')} |\n|---|${targets.map(() => '---').join('|')}|`);
for (const part of seedParts) {
  const cells = targets.map(
    (t) => figures.find((f) => f.target === t && f.name === `seed: ${part}`)?.value ?? '-',
  );
  console.log(`| ${part} | ${cells.join(' | ')} |`);
}

/** ' (≤ 25, met)' or ' (≤ 25, **missed**)' after a figure with a budget. */
const budgetNote = (f: Figure | undefined) => {
  if (!f?.budget || !('max' in f.budget)) return '';
  return ` (≤ ${f.budget.max}, ${withinBudget(f.value, f.budget) ? 'met' : '**missed**'})`;
};
console.log(
  '\n| endpoint | conn | target | req/s | p50 ms | p99 ms (budget) | errors (budget) | server ELD p99 ms | server RSS MB |\n|---|---|---|---|---|---|---|---|---|',
);
const rows = new Map<string, { endpoint: string; conn: string; target: string }>();
for (const f of figures) {
  const m = f.name.match(/^(.*), (\d+) conn, /);
  if (m?.[1] && m[2])
    rows.set(`${f.target}|${m[1]}|${m[2]}`, { endpoint: m[1], conn: m[2], target: f.target });
}
for (const { endpoint, conn, target } of rows.values()) {
  const get = (what: string) =>
    figures.find((f) => f.target === target && f.name.startsWith(`${endpoint}, ${conn} conn, ${what}`));
  const cell = (f: Figure | undefined) => (f ? String(f.value) : '-');
  const p99 = get('p99');
  const errors = get('errors');
  console.log(
    `| ${endpoint} | ${conn} | ${target} | ${cell(get('req/s'))} | ${cell(get('p50'))} | ${cell(p99)}${budgetNote(p99)} | ${cell(errors)}${budgetNote(errors)} | ${cell(get('server event-loop delay p99'))} | ${cell(get('server RSS'))} |`,
  );
}
