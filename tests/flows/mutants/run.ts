import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSpa, REPO_ROOT } from '../stack';
import { type Mutant, parseMutant } from './mutant';

/**
 * `npm run test:walk-mutants` (docs/decisions/064-walk-oracle-and-mutants.md): the flow walk's
 * mutants set. Each patch in tests/flows/mutants/ (NN-name.patch) is one deliberate defect (issue 30's table),
 * headed by the machines to walk and the suites that should catch it. For each: a temporary copy of
 * the repository at HEAD (`git worktree add --detach` in the temporary folder; node_modules linked,
 * not copied), the patch applied, the SPA built when the patch touches it (the build of HEAD
 * reused otherwise), the named machines walked (FLOWS_ONLY) against a server and mailbox of the
 * copy's own, and the copy removed. Prints the table (mutant | machines | walk caught?) and writes
 * it into the flows report folder (mutants.md and mutants.json beside index.html).
 *
 * Long (a build and a walk per mutant): not part of `npm run validate`. WALK_MUTANTS=01,05 runs a
 * subset, WALK_MUTANTS_PARALLEL=2 two at a time; FLOWS_REPORT_DIR moves the report folder as for the
 * walk. Commit first: the copy is HEAD.
 */

const DIR = join(REPO_ROOT, 'tests/flows/mutants');
const reportDir = resolve(REPO_ROOT, process.env.FLOWS_REPORT_DIR || 'flows-report');
const wanted = (process.env.WALK_MUTANTS ?? '').split(',').filter(Boolean);

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** Walks the machines in the copy; resolves with the exit code and the walk's summary lines. */
function walkIn(
  copy: string,
  m: Mutant,
  logFile: string,
): Promise<{ code: number; summary: string[]; ran: boolean; why: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/flows/walk.ts'], {
      cwd: copy,
      env: {
        ...process.env,
        FLOWS_ONLY: m.machines.join(','),
        FLOWS_SKIP_BUILD: '1',
        FLOWS_REPORT_DIR: join(reportDir, 'mutants', m.file.replace(/\.patch$/, '')),
        FLOWS_BASE_URL: '',
        FLOWS_MAILBOX_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => {
      writeFileSync(logFile, out);
      const lines = out.split('\n');
      const summary = lines
        .filter((l) => /^(\S+: \d+\/\d+ paths passed|flows: |\s+step \d+ failed)/.test(l))
        .slice(0, 8);
      // The walk ran when it printed its count; otherwise it did not start (a server too slow to start).
      const ran = lines.some((l) => /^flows: \d+ passed, \d+ failed/.test(l));
      const why = lines.filter((l) => l.trim()).slice(-1)[0] ?? '';
      done({ code: code ?? 1, summary, ran, why });
    });
  });
}

async function runMutant(m: Mutant, baseBuild: string) {
  const copy = join(tmpdir(), `walk-mutant-${m.id}-${process.pid}`);
  rmSync(copy, { recursive: true, force: true });
  git(REPO_ROOT, 'worktree', 'add', '--detach', copy, 'HEAD');
  try {
    // What git does not hold: the installed packages and the generated styles, linked.
    for (const generated of ['node_modules', 'styled-system'])
      if (existsSync(join(REPO_ROOT, generated)))
        symlinkSync(join(REPO_ROOT, generated), join(copy, generated));
    git(copy, 'apply', join(DIR, m.file));
    const spaDir = join(copy, 'tests/.tmp/flows-dist');
    if (m.touchesSpa) {
      // Not spawnSync: the other mutants' walks run meanwhile (WALK_MUTANTS_PARALLEL).
      const args = ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error', '--outDir', spaDir];
      const status = await new Promise<number | null>((done) =>
        spawn(process.execPath, [...args, '--emptyOutDir'], { cwd: copy, stdio: 'ignore' }).once(
          'exit',
          done,
        ),
      );
      if (status !== 0) throw new Error('vite build of the mutant failed');
    } else {
      mkdirSync(join(copy, 'tests/.tmp'), { recursive: true });
      cpSync(baseBuild, spaDir, { recursive: true });
    }
    const t0 = Date.now();
    const log = join(reportDir, 'mutants', `${m.file.replace(/\.patch$/, '')}.log`);
    let walked = await walkIn(copy, m, log);
    // A walk that did not run says nothing of the mutant: once more, then reported as such.
    if (!walked.ran) walked = await walkIn(copy, m, log);
    const seconds = Math.round((Date.now() - t0) / 1000);
    if (!walked.ran)
      return { caught: false, summary: [], seconds, error: `the walk did not run: ${walked.why}` };
    return { caught: walked.code !== 0, summary: walked.summary, seconds };
  } finally {
    git(REPO_ROOT, 'worktree', 'remove', '--force', copy);
  }
}

async function main() {
  const mutants = readdirSync(DIR)
    .filter((f) => /^\d\d-.+\.patch$/.test(f))
    .sort()
    .map((f) => parseMutant(f, readFileSync(join(DIR, f), 'utf8')))
    .filter((m) => !wanted.length || wanted.includes(m.id));
  if (!mutants.length) throw new Error(`no mutant matches WALK_MUTANTS=${wanted.join(',')}`);
  mkdirSync(join(reportDir, 'mutants'), { recursive: true });
  // HEAD's SPA, for the mutants that change only the server.
  const baseBuild = join(REPO_ROOT, 'tests/.tmp/flows-dist');
  if (!process.env.FLOWS_SKIP_BUILD || !existsSync(join(baseBuild, 'index.html'))) buildSpa(baseBuild);
  const rows: Array<Mutant & { caught: boolean; summary: string[]; seconds: number; error?: string }> = [];
  // WALK_MUTANTS_PARALLEL=n: n mutants at a time (each its own copy, server and browser).
  const parallel = Math.max(1, Number(process.env.WALK_MUTANTS_PARALLEL ?? 1));
  const queue = [...mutants];
  const worker = async () => {
    for (let m = queue.shift(); m; m = queue.shift()) await one(m);
  };
  const one = async (m: Mutant) => {
    console.log(`\n${m.file}: ${m.title} (walking ${m.machines.join(', ')})`);
    const result: { caught: boolean; summary: string[]; seconds: number; error?: string } = await runMutant(
      m,
      baseBuild,
    ).catch((e: Error) => ({ caught: false, summary: [], seconds: 0, error: e.message }));
    rows.push({ ...m, ...result });
    console.log(
      `  ${m.id} ${result.caught ? 'caught' : 'NOT caught'} in ${result.seconds} s${result.error ? ` (${result.error})` : ''}`,
    );
    for (const line of result.summary) console.log(`    ${m.id} ${line.trim()}`);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  rows.sort((a, b) => a.id.localeCompare(b.id));
  const table = [
    '| mutant | machines walked | walk caught? | also caught by |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.id} ${r.title} | ${r.machines.join(', ')} | ${r.caught ? 'caught' : `**not caught**${r.error ? ` (${r.error})` : ''}`} | ${r.suites} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  const caught = rows.filter((r) => r.caught).length;
  console.log(`walk mutants: ${caught}/${rows.length} caught`);
  writeFileSync(
    join(reportDir, 'mutants.md'),
    `# Walk mutants (${new Date().toISOString()})\n\n${table}\n\n${caught}/${rows.length} caught. Logs: mutants/*.log, reports: mutants/*/index.html\n`,
  );
  writeFileSync(join(reportDir, 'mutants.json'), JSON.stringify(rows, null, 2));
  console.log(`report: ${join(reportDir, 'mutants.md')}`);
  return caught === rows.length;
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (e: Error) => {
    console.error(e.message);
    process.exit(1);
  },
);
