#!/usr/bin/env node
/**
 * `npm run check:migrations` (part of `npm run validate`; docs/decisions/055-server-layers.md and
 * docs/how-to.md "Change the database schema"): the migration history cannot be rewritten.
 *
 * 1. The journal (server/db/migrations/meta/_journal.json) names each migration by its number: the
 *    entry's idx equals the number its tag and file start with, the numbers rise, every entry has its
 *    .sql file and its snapshot, and no .sql file is outside the journal. Numbers may have gaps: 0010
 *    was never committed (decision 011), so the journal goes 0009 → 0011 and drizzle-kit numbers the
 *    next migration after the last idx, never into the gap.
 * 2. Committed history is untouched: every migration and snapshot that the base commit holds
 *    (MIGRATIONS_BASE, else `main` when it exists, else HEAD) is byte for byte the same in the
 *    working tree; only the journal may grow, keeping its committed entries as they were.
 * 3. The schema and the migrations agree: drizzle-kit generate, run into a scratch copy of the
 *    migrations, finds nothing to write. A schema change without its migration fails here (run
 *    `npm run db:generate -- --name <what>`), and the migration it would write is named with the
 *    next number.
 *
 * `--dir <path>` checks another migrations folder (its own test uses a scratch copy); step 3 then uses
 * `--schema <file>` (default ./server/db/schema.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const root = process.cwd();
const dir = opt('--dir', 'server/db/migrations');
const schema = opt('--schema', './server/db/schema.ts');
const skipGit = args.includes('--no-git');
const problems = [];

// 1. The journal and the files.
const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8'));
const numberOf = (name) => Number(/^(\d{4})_/.exec(name)?.[1] ?? Number.NaN);
let last = -1;
for (const e of journal.entries) {
  const n = numberOf(e.tag);
  if (e.idx !== n) problems.push(`journal entry ${e.tag}: idx ${e.idx} is not its number ${n}`);
  if (!(n > last)) problems.push(`journal entry ${e.tag}: number ${n} does not follow ${last}`);
  last = Math.max(last, n);
  if (!existsSync(join(dir, `${e.tag}.sql`))) problems.push(`journal entry ${e.tag}: no ${e.tag}.sql`);
  const snapshot = `${String(n).padStart(4, '0')}_snapshot.json`;
  if (!existsSync(join(dir, 'meta', snapshot))) problems.push(`journal entry ${e.tag}: no meta/${snapshot}`);
}
const tags = new Set(journal.entries.map((e) => e.tag));
for (const f of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
  if (!tags.has(f.slice(0, -4))) problems.push(`${f} is not in the journal`);
}
const numbers = readdirSync(dir)
  .filter((f) => f.endsWith('.sql'))
  .map(numberOf);
if (new Set(numbers).size !== numbers.length) problems.push('two migration files share a number');

// 2. Committed migrations and snapshots unchanged.
if (!skipGit) {
  const git = (...a) => execFileSync('git', a, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const hasRef = (ref) => spawnSync('git', ['rev-parse', '--verify', '--quiet', ref]).status === 0;
  const base =
    process.env.MIGRATIONS_BASE || (hasRef('main') ? git('merge-base', 'HEAD', 'main').trim() : 'HEAD');
  const repoDir = relative(git('rev-parse', '--show-toplevel').trim(), resolve(root, dir));
  const committed = git('ls-tree', '-r', '--name-only', base, '--', repoDir).split('\n').filter(Boolean);
  for (const path of committed) {
    const then = execFileSync('git', ['show', `${base}:${path}`], { maxBuffer: 64 * 1024 * 1024 });
    const file = resolve(git('rev-parse', '--show-toplevel').trim(), path);
    if (!existsSync(file)) {
      problems.push(`${path} was committed and is gone`);
      continue;
    }
    if (path.endsWith('meta/_journal.json')) {
      const before = JSON.parse(then.toString('utf8')).entries;
      const now = journal.entries;
      before.forEach((e, i) => {
        if (JSON.stringify(e) !== JSON.stringify(now[i])) problems.push(`journal entry ${e.tag} was changed`);
      });
    } else if (!then.equals(readFileSync(file))) {
      problems.push(`${path} was committed and has changed: a committed migration is never edited, add one`);
    }
  }
}

// 3. The schema needs no migration that is not there.
// tests/.tmp is not in a fresh clone (it is ignored).
mkdirSync(join(root, 'tests/.tmp'), { recursive: true });
const scratch = mkdtempSync(join(root, 'tests/.tmp/', 'check-migrations-'));
try {
  cpSync(dir, scratch, { recursive: true });
  const out = `./${relative(root, scratch)}`;
  const run = spawnSync(
    'npx',
    ['drizzle-kit', 'generate', '--dialect', 'postgresql', '--schema', schema, '--out', out],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) problems.push(`drizzle-kit generate failed:\n${run.stdout}${run.stderr}`);
  const written = readdirSync(scratch).filter((f) => f.endsWith('.sql') && !existsSync(join(dir, f)));
  for (const f of written) {
    const expected = String(last + 1).padStart(4, '0');
    problems.push(
      `the schema changed without a migration: drizzle-kit would write ${f}` +
        (numberOf(f) === last + 1 ? '' : ` (not the next number ${expected})`) +
        '; run npm run db:generate -- --name <what-changed> and commit it',
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`check:migrations: ${problems.length} problem(s)\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `check:migrations: ${journal.entries.length} migrations (last ${String(last).padStart(4, '0')}), history untouched, schema in step`,
);
