import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * Starting what the walk walks against, when nobody gave it a deployment (`npm run test:flows`
 * without FLOWS_BASE_URL) or in CI (scripts/ci-flows.ts): the SPA build, the real server
 * (server/main.ts, as `npm start` runs it) and the capture mailbox, each a child process.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export function buildSpa(outDir: string) {
  const build = spawnSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('vite build failed');
}

export interface Child {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Spawns `node --import tsx <script>` and waits until `probe` answers. */
async function startChild(
  name: string,
  script: string,
  env: Record<string, string>,
  probe: string,
): Promise<Child> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited early (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(probe)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start within 300 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url: new URL(probe).origin,
    output: () => output,
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The real server on an embedded database under `dataDir`, sending mail to `smtpUrl`. */
export function startServerProcess(opts: { port: number; dataDir: string; spaDir: string; smtpUrl: string }) {
  return startChild(
    'server',
    'server/main.ts',
    {
      DATABASE_URL: '',
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      SPA_DIR: opts.spaDir,
      SMTP_URL: opts.smtpUrl,
      LOG_LEVEL: 'warn',
    },
    `http://127.0.0.1:${opts.port}/api/v1/health`,
  );
}

/** `npm run mailbox` as its own process. */
export function startMailboxProcess(opts: { smtpPort: number; httpPort: number }) {
  return startChild(
    'mailbox',
    'tests/flows/mailbox-main.ts',
    { MAILBOX_SMTP_PORT: String(opts.smtpPort), MAILBOX_HTTP_PORT: String(opts.httpPort) },
    `http://127.0.0.1:${opts.httpPort}/api/v1/messages`,
  );
}
