#!/usr/bin/env node
/**
 * `npm run test:mutation:domain`: StrykerJS over `server/domain`, one group of domain files at a
 * time, each against the server tests that exercise it (issue 30, docs/decisions/071-mutation-testing.md).
 *
 * Why groups: every route test builds the whole app, so Stryker's `related` picks nearly the whole
 * server suite for any domain file, and a mutant in a widely used rule (events, users, scope) would be
 * run against dozens of files. Each group names the domain files and the tests that are about them
 * (their own unit tests, the route tests of the routes that use them); the score is that of those
 * tests, a lower bound of the whole suite's.
 *
 *   npm run test:mutation:domain                      every group, then the table
 *   npm run test:mutation:domain -- redemption auth   the named groups only
 *   npm run test:mutation:domain -- --concurrency 1   Stryker arguments pass through
 *   MUTATION_FORCE=1 npm run test:mutation:domain     every mutant again (Stryker's --force)
 *
 * A group's rerun is incremental (its own reports/mutation/domain/<group>/stryker-incremental.json):
 * Stryker tests again each mutant whose code changed, each survivor that a new or changed test now
 * reaches, and each killed mutant whose killing test changed; the rest keep their last result. Tests are
 * only ever added here, so that is the same score as a full run at a fraction of the time, with one
 * exception: a survivor reached only at module load (a static mutant) is not retested when a test is
 * added, so an incremental score can only be lower than a full run's. `--force` is therefore not passed
 * on unless MUTATION_FORCE=1 asks for it (a run queued behind others on two cores takes long enough).
 *   npm run test:mutation:domain -- --table           the table of the last runs only
 *   npm run test:mutation:domain -- --survivors otp   the last run's survivors of files matching "otp"
 *
 * Reports: reports/mutation/domain/<group>/index.html (every survivor in its code) and mutation.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { calculateMetrics } from 'mutation-testing-metrics';

export const GROUPS = [
  {
    name: 'redemption',
    mutate: ['otp', 'ledger', 'redemption', 'rewards'],
    tests: [
      'server/domain/otp.test.ts',
      'server/routes/redemption.test.ts',
      'server/routes/redemption-code-idempotency.test.ts',
      'server/routes/reward-ledger.test.ts',
      'server/routes/redemption-refusals.test.ts',
    ],
  },
  {
    name: 'auth',
    mutate: [
      'tokens',
      'sessions',
      'passwords',
      'password-attempts',
      'reset-codes',
      'rate-limit',
      'permissions',
    ],
    tests: [
      'server/domain/tokens.test.ts',
      'server/domain/reset-codes.test.ts',
      'server/domain/rate-limit.test.ts',
      'server/domain/permissions.test.ts',
      'server/domain/passwords.test.ts',
      'server/domain/sessions.test.ts',
      'server/routes/auth.test.ts',
      'server/routes/access-tokens.test.ts',
      'server/routes/abuse-limits.test.ts',
    ],
  },
  {
    name: 'people',
    mutate: ['partners', 'staff', 'roles', 'users', 'changes', 'scope'],
    tests: [
      'server/domain/scope.test.ts',
      'server/domain/changes.test.ts',
      'server/domain/roles.test.ts',
      'server/domain/users.test.ts',
      'server/domain/partners.test.ts',
      'server/domain/staff.test.ts',
      'server/routes/partners.test.ts',
      'server/routes/staff.test.ts',
      'server/routes/roles.test.ts',
      'server/routes/profile.test.ts',
      'server/routes/partner-scope.test.ts',
      'server/routes/edit-versions.test.ts',
      'server/routes/staff-placement.test.ts',
    ],
  },
  {
    name: 'customers',
    mutate: [
      'customer-links',
      'customer-privacy',
      'customer-sync',
      'customer-import-dry-run',
      'status-webhooks',
      'api-keys',
    ],
    tests: [
      'server/domain/api-keys.test.ts',
      'server/domain/customer-sync.test.ts',
      'server/domain/customer-links.test.ts',
      'server/domain/status-webhooks.test.ts',
      'server/domain/customer-links-db.test.ts',
      'server/domain/customer-privacy-db.test.ts',
      'server/domain/customer-import-dry-run.test.ts',
      'server/domain/customer-sync-db.test.ts',
      'server/domain/status-webhooks-db.test.ts',
      'server/routes/customer-links.test.ts',
      'server/routes/customer-privacy.test.ts',
      'server/routes/customer-sync.test.ts',
      'server/routes/customer-import-dry-run.test.ts',
      'server/routes/api-keys.test.ts',
    ],
  },
  {
    name: 'issuing',
    mutate: ['reward-issue', 'approvals', 'campaigns'],
    tests: [
      'server/domain/approvals.test.ts',
      'server/domain/campaigns.test.ts',
      'server/domain/reward-issue-db.test.ts',
      'server/domain/approvals-db.test.ts',
      'server/domain/campaigns-db.test.ts',
      'server/routes/approvals.test.ts',
      'server/routes/campaigns.test.ts',
      'server/routes/campaign-batch.test.ts',
    ],
  },
  {
    name: 'visits',
    mutate: ['visits', 'visit-review', 'eligibility', 'points', 'counts', 'analytics'],
    tests: [
      'server/domain/eligibility.test.ts',
      'server/domain/points.test.ts',
      'server/domain/counts.test.ts',
      'server/domain/analytics.test.ts',
      'server/domain/visits.test.ts',
      'server/routes/visits.test.ts',
      'server/routes/visit-reviews.test.ts',
      'server/routes/reward-activity.test.ts',
    ],
  },
  {
    name: 'platform',
    mutate: ['events', 'idempotency', 'images', 'settings', 'webhooks'],
    tests: [
      'server/domain/events.test.ts',
      'server/domain/idempotency.test.ts',
      'server/domain/images.test.ts',
      'server/domain/settings.test.ts',
      'server/domain/webhooks.test.ts',
      'server/domain/webhook-rules.test.ts',
      'server/domain/idempotency-rules.test.ts',
      'server/domain/events-rules.test.ts',
      'server/domain/images-store.test.ts',
      'server/routes/activities.test.ts',
      'server/webhook-events.test.ts',
    ],
  },
];

const reportOf = (group) => `reports/mutation/domain/${group.name}`;

function run(group, strykerArgs) {
  const mutate = group.mutate.map((f) => `server/domain/${f}.ts`).join(',');
  console.log(`\n== ${group.name}: ${mutate}\n   tests: ${group.tests.join(', ')}\n`);
  const result = spawnSync('npx', ['stryker', 'run', '--mutate', mutate, ...strykerArgs], {
    stdio: 'inherit',
    env: {
      ...process.env,
      TEST_DATABASE_URL: '',
      MUTATION_TESTS: group.tests.join(','),
      MUTATION_REPORT: reportOf(group),
    },
  });
  if (result.status !== 0)
    throw new Error(`Stryker failed on the ${group.name} group (exit ${result.status})`);
}

const pct = (m) => (m.totalValid === 0 ? 'n/a' : `${m.mutationScore.toFixed(2)}%`);
const row = (cells) => `| ${cells.join(' | ')} |`;

function table(groups) {
  const lines = [row(['file', 'group', 'mutants', 'score', 'killed', 'timeout', 'survived', 'no coverage'])];
  lines.push(row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:']));
  const all = {};
  const missing = [];
  for (const group of groups) {
    const file = `${reportOf(group)}/mutation.json`;
    if (!existsSync(file)) {
      missing.push(group.name);
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    for (const [path, result] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
      all[path] = result;
      const { metrics: m } = calculateMetrics({ [path]: result });
      lines.push(
        row(
          [path, group.name, m.totalMutants, pct(m), m.killed, m.timeout, m.survived, m.noCoverage].map(
            String,
          ),
        ),
      );
    }
  }
  const { metrics: m } = calculateMetrics(all);
  lines.push(
    row(
      ['**all**', '', m.totalMutants, `**${pct(m)}**`, m.killed, m.timeout, m.survived, m.noCoverage].map(
        String,
      ),
    ),
  );
  console.log(`\n${lines.join('\n')}`);
  if (missing.length > 0) console.log(`\nNot run yet: ${missing.join(', ')}`);
}

/** Each survivor and uncovered mutant of the files whose path contains `match`: where, what, status. */
function survivors(match) {
  for (const group of GROUPS) {
    const file = `${reportOf(group)}/mutation.json`;
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    for (const [path, result] of Object.entries(report.files)) {
      if (!path.includes(match)) continue;
      const lines = result.source.split('\n');
      const left = result.mutants
        .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
        .sort((a, b) => a.location.start.line - b.location.start.line);
      for (const m of left) {
        const { start } = m.location;
        console.log(
          `${path}:${start.line}:${start.column} ${m.status} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? '')}`,
        );
        console.log(`    ${lines[start.line - 1].trim()}`);
      }
    }
  }
}

const args = process.argv.slice(2);
if (args[0] === '--survivors') {
  survivors(args[1] ?? '');
  process.exit(0);
}
const tableOnly = args.includes('--table');
const names = args.filter((a) => /^[a-z]+$/.test(a) && GROUPS.some((g) => g.name === a));
const unknown = args.filter((a) => /^[a-z]+$/.test(a) && !names.includes(a));
const force = process.env.MUTATION_FORCE === '1';
if (args.includes('--force') && !force)
  console.log(
    'test:mutation:domain: --force is not passed on (incremental reruns; MUTATION_FORCE=1 runs every mutant again)',
  );
const strykerArgs = [
  ...args.filter((a) => a !== '--table' && a !== '--force' && !names.includes(a)),
  ...(force ? ['--force'] : []),
];
if (unknown.length > 0) {
  console.error(`No group named ${unknown.join(', ')}. Groups: ${GROUPS.map((g) => g.name).join(', ')}`);
  process.exit(2);
}
// Every domain file is in a group: a new file without one is named here rather than left unmeasured.
const grouped = new Set(GROUPS.flatMap((g) => g.mutate.map((f) => `${f}.ts`)));
const ungrouped = readdirSync('server/domain').filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !grouped.has(f),
);
if (ungrouped.length > 0) {
  console.error(`server/domain files in no group of scripts/mutation-domain.mjs: ${ungrouped.join(', ')}`);
  process.exit(2);
}
const chosen = names.length > 0 ? GROUPS.filter((g) => names.includes(g.name)) : GROUPS;
if (!tableOnly) for (const group of chosen) run(group, strykerArgs);
table(tableOnly && names.length === 0 ? GROUPS : chosen);
