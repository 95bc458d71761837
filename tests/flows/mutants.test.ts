import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMutant } from './mutants/mutant';
import { selectWalks } from './select';

const DIR = join(import.meta.dirname, 'mutants');
const WALKS = join(import.meta.dirname, 'walks');

/** The walk's mutants set (npm run test:walk-mutants): every patch says what it breaks and what to walk. */
describe('the walk mutants set', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.patch'));
  const walks = readdirSync(WALKS)
    .filter((f) => f.endsWith('.walk.ts'))
    .map((f) => f.slice(0, -'.walk.ts'.length));

  it("holds the eleven defects of issue 30's table, numbered in order", () => {
    expect(files.map((f) => f.slice(0, 2))).toEqual(
      Array.from({ length: 11 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
  });

  it.each(files)('%s names its defect, machines the walk knows and the suites that catch it', (file) => {
    const m = parseMutant(file, readFileSync(join(DIR, file), 'utf8'));
    expect(m.title.length).toBeGreaterThan(10);
    expect(m.suites).toMatch(/walk/);
    // The names resolve as FLOWS_ONLY resolves them (a report name or a walk's file name).
    const available = walks.map((stem) => ({
      stem,
      name: stem.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
    }));
    expect(selectWalks(m.machines, available).length).toBe(m.machines.length);
  });

  it('refuses a patch without its header', () => {
    expect(() => parseMutant('99-x.patch', 'diff --git a/src/x.ts b/src/x.ts\n')).toThrow(/Mutant:/);
  });
});
