import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_SPA_DIR, E2E_TMP, REPO_ROOT } from './support/env';

/**
 * Issue 33 item 2: the production install from exactly the files the README's Deploy section lists
 * ("Install and run ... on the server: ..."), into an empty folder: `npm ci --omit=dev`, then
 * `npm run start:prod`. It exited 1 when `prepare` ran a script that is not in that list. The list
 * is read from the README itself, so the test follows it if it changes.
 */
const WORK = join(E2E_TMP, 'production-install');

/** The files and folders the README's "Install and run" paragraph names in backticks. */
function readmeInstallList(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const paragraph = /\*\*Install and run\*\* \(on the server:([^;]*);/.exec(readme)?.[1];
  expect(paragraph, 'the README names the files a production install needs').toBeTruthy();
  return [...paragraph!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

test('npm ci --omit=dev and npm run start:prod work from exactly the files the README lists', async () => {
  test.setTimeout(300_000);
  const files = readmeInstallList();
  expect(files).toEqual(['package.json', 'package-lock.json', 'dist/', 'dist-server/']);
  rmSync(WORK, { recursive: true, force: true });
  const app = join(WORK, 'app');
  mkdirSync(app, { recursive: true });
  // The build as `npm run build` makes it: the SPA (global setup's build) and the server.
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', join(WORK, 'dist-server')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  expect(build.status, build.stderr).toBe(0);
  const sources: Record<string, string> = {
    'dist/': E2E_SPA_DIR,
    'dist-server/': join(WORK, 'dist-server'),
  };
  for (const f of files) cpSync(sources[f] ?? join(REPO_ROOT, f), join(app, f), { recursive: true });

  const installStarted = Date.now();
  const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: app,
    encoding: 'utf8',
  });
  expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);

  const installSeconds = (Date.now() - installStarted) / 1000;
  const port = await freePort();
  const startStarted = Date.now();
  const server = spawn('npm', ['run', 'start:prod'], {
    cwd: app,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_SECRET: 'install-test-secret-0123456789abcdef0123456789',
      DATA_DIR: join(WORK, 'data'),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.on('data', (d) => {
    output += d;
  });
  server.stderr.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 150_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`start:prod exited ${server.exitCode}:\n${output}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      if (ready?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`not ready within 150 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    console.log(
      `[figure] production install: npm ci --omit=dev ${installSeconds.toFixed(0)} s, start to ready ${((Date.now() - startStarted) / 1000).toFixed(0)} s`,
    );
    const index = await fetch(`http://127.0.0.1:${port}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<div id="root"');
    server.kill('SIGTERM');
    expect(await exited, output).toBe(0);
  } finally {
    server.kill('SIGKILL');
    rmSync(WORK, { recursive: true, force: true });
  }
});
