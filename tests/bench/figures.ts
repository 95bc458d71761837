/**
 * The one way a benchmark reports a figure. Each bench calls `figure(...)` for every number it
 * measures; the figure is printed at once and appended (one JSON line) to the run's figures file,
 * which `npm run bench` (tests/bench/run-all.ts) reads back to print one table: figure, value,
 * budget, machine. Nothing here fails on a timing: a missed budget is printed, never thrown.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Budget = { max: number } | { min: number } | null;

export interface Figure {
  /** Which benchmark measured it, e.g. 'api-load'. */
  bench: string;
  /** What was measured, readable on its own, e.g. 'partner list search, PostgreSQL, 10 conn, p99'. */
  name: string;
  value: number;
  /** 'ms', 'req/s', 'KB gzip', 'MB', 'score', 'count', ... */
  unit: string;
  budget: Budget;
  /** Database or browser the figure came from ('PGlite', 'PostgreSQL', 'Chromium', '-'). */
  target: string;
}

/** Where figures of the current run go; run-all.ts sets BENCH_FIGURES_FILE for its children. */
export const FIGURES_FILE =
  process.env.BENCH_FIGURES_FILE ?? fileURLToPath(new URL('../.tmp/bench/figures.jsonl', import.meta.url));

/** A short description of this machine, printed beside the figures. */
export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
}

/** True when the value meets its budget (or there is none). */
export function withinBudget(value: number, budget: Budget): boolean {
  if (!budget) return true;
  return 'max' in budget ? value <= budget.max : value >= budget.min;
}

export function budgetText(budget: Budget, unit: string): string {
  if (!budget) return '-';
  return 'max' in budget ? `≤ ${budget.max} ${unit}` : `≥ ${budget.min} ${unit}`;
}

/** Records and prints one figure. */
export function figure(f: Figure): Figure {
  const rounded = { ...f, value: Number.isInteger(f.value) ? f.value : +f.value.toFixed(2) };
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify(rounded)}\n`);
  const verdict = f.budget ? (withinBudget(f.value, f.budget) ? 'within budget' : 'OVER BUDGET') : '';
  console.log(
    `[figure] ${f.bench} | ${f.name} | ${rounded.value} ${f.unit} | budget ${budgetText(f.budget, f.unit)} | ${f.target} ${verdict}`,
  );
  return rounded;
}
