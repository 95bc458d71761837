// CI's unit and server tests (`npm run test:ci`, part of `npm run validate`; docs/decisions/038-ci-time.md).
// The same files and projects as `npm test` plus the date-proof run, in three steps, each timed:
//   1. web, and the server suite on PostgreSQL (when TEST_DATABASE_URL names one), on today's clock,
//      without the files of scripts/run-apart.mjs (TEST_RUN_APART=1);
//   2. those files (fault tests, export memory), one at a time, on today's clock, on both databases,
//      and on PostgreSQL the pool races of ALONE_ON_POSTGRES, one at a time too;
//   3. the server suite on PGlite with the clock 200 days ahead (`npm run test:server:future`), which
//      takes the place of a PGlite run on today's clock: PGlite, PostgreSQL and the moved clock are each
//      still covered, by one run fewer.
import { spawnSync } from 'node:child_process';
import { ALONE_ON_POSTGRES, RUN_APART } from './run-apart.mjs';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const vitest = ['node_modules/vitest/vitest.mjs', 'run'];

const steps = [
  {
    name: `web${postgres ? ' + server on PostgreSQL' : ''}`,
    cmd: process.execPath,
    args: [...vitest, '--project', 'web', ...(postgres ? ['--project', 'server-postgres'] : [])],
    env: { TEST_RUN_APART: '1' },
  },
  {
    name: 'fault tests and export memory, one file at a time',
    cmd: process.execPath,
    args: [
      ...vitest,
      '--maxWorkers=1',
      '--project',
      'server',
      ...(postgres ? ['--project', 'server-postgres'] : []),
      ...RUN_APART,
    ],
  },
  ...(postgres
    ? [
        {
          name: 'pool races on PostgreSQL, one file at a time',
          cmd: process.execPath,
          args: [...vitest, '--maxWorkers=1', '--project', 'server-postgres', ...ALONE_ON_POSTGRES],
        },
      ]
    : []),
  { name: 'server on PGlite, clock +200 days', cmd: 'npm', args: ['run', '--silent', 'test:server:future'] },
];

const times = [];
for (const step of steps) {
  const started = Date.now();
  console.log(`\ntest:ci: ${step.name}`);
  const run = spawnSync(step.cmd, step.args, { stdio: 'inherit', env: { ...process.env, ...step.env } });
  times.push(`${step.name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (run.status !== 0) {
    console.error(`test:ci: "${step.name}" failed (${times.join('; ')})`);
    process.exit(run.status ?? 1);
  }
}
console.log(`test:ci: ${times.join('; ')}`);
