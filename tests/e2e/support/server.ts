import { type ChildProcess, spawn } from 'node:child_process';
import { E2E_SPA_DIR, REPO_ROOT } from './env';

export type RunningServer = { url: string; dataDir: string; stop: () => Promise<void> };

/**
 * Starts the real server (`server/main.ts`, exactly what `npm start` runs) as a child process
 * on its own port and data folder, and waits until it answers.
 */
export async function startServer(opts: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<RunningServer> {
  const url = `http://127.0.0.1:${opts.port}`;
  // A server left over from an earlier, interrupted run would answer in this one's place.
  if (await answers(url)) throw new Error(`port ${opts.port} already has a server: stop it first`);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      SPA_DIR: E2E_SPA_DIR,
      LOG_LEVEL: 'warn',
      // The links in mails open the console where the browser of the tests finds it.
      APP_URL: url,
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Whatever happens to this test process (a hook timing out mid-start included), the server goes with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    if (await answers(url)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    dataDir: opts.dataDir,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/v1/health`)).ok;
  } catch {
    return false; // not listening
  }
}

/**
 * Seeds the demo data into a fresh embedded database, reads the dashboard figures from it with
 * plain SQL, then starts the real server on it: a club no other spec has touched.
 */
export async function startSeededServer(opts: { port: number; dataDir: string }) {
  const { openDatabase } = await import('../../../server/db/client');
  const { seedDemo } = await import('../../../server/seed/demo');
  const { readDashboardFigures } = await import('./figures');
  const database = await openDatabase({ kind: 'pglite', dataDir: `${opts.dataDir}/db` });
  let figures: Awaited<ReturnType<typeof readDashboardFigures>>;
  try {
    await seedDemo(database.db);
    figures = await readDashboardFigures(database.db);
  } finally {
    await database.close();
  }
  const server = await startServer(opts);
  return { server, figures };
}
