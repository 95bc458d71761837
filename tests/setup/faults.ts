import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnce } from '../../server/db/client';

/**
 * Fault-test harness (issue 8 item 4): the real server (`server/main.ts`, what `npm start` runs) as a
 * child process that can be SIGKILLed, and a private PostgreSQL instance that can be stopped and
 * started (never the shared one on 5432).
 *
 * The long fault tests run when HARDENING_FAULTS=1 (CI sets it in .ci/run).
 */
export const FAULTS_ENABLED = process.env.HARDENING_FAULTS === '1';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A TCP port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A one-page SPA folder, so the server does not build the real SPA (the API is under test here). */
export function tinySpaDir(parent: string): string {
  const dir = join(parent, 'spa');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>fault test</title>');
  return dir;
}

export type ServerProcess = {
  url: string;
  pid: number;
  /** Everything the process printed so far. */
  output: () => string;
  alive: () => boolean;
  /** SIGKILL: no shutdown handler runs, connections drop mid-request. */
  kill: () => Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop: () => Promise<void>;
};

/**
 * Starts `server/main.ts` with `env` on a port of its own and waits until /health answers. With
 * `built`, that built server (a dist-server/main.js of scripts/build-server.mjs) runs with plain
 * node and only `env` and PATH, as `npm run start:prod` runs it.
 */
export async function startServerProcess(
  env: Record<string, string>,
  opts: { built?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    opts.built ? [opts.built] : ['--import', 'tsx', 'server/main.ts'],
    {
      cwd: REPO_ROOT,
      env: opts.built
        ? { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env, PORT: String(port) }
        : {
            ...process.env,
            DATABASE_URL: '',
            SMTP_URL: '',
            SEED_DEMO: 'false',
            LOG_LEVEL: 'warn',
            ...env,
            PORT: String(port),
          },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited early (${child.exitCode ?? child.signalCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    pid: child.pid!,
    output: () => output,
    alive,
    kill: async () => {
      if (!alive()) return;
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A fresh database on TEST_DATABASE_URL's server, dropped by `drop()`. */
export async function createScratchDatabase(serverUrl: string, prefix: string) {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await runOnce(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await runOnce(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A private PostgreSQL instance

/** The newest Debian PostgreSQL binaries (/usr/lib/postgresql/N/bin), or PG_BINDIR. */
function postgresBinDir(): string {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) {
    throw new Error(
      'No PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin: install the ' +
        "Debian 'postgresql' package or set PG_BINDIR. The fault tests need a private instance to stop.",
    );
  }
  return join(base, versions[0], 'bin');
}

export type PrivatePostgres = {
  url: string;
  port: number;
  stop: () => void;
  start: () => void;
  /** Stops it for good and removes its folder. */
  destroy: () => void;
};

/**
 * initdb + pg_ctl into a temporary folder on a free port (trust auth, loopback only). PostgreSQL
 * refuses to run as root: as root, the commands run as the `postgres` user (runuser). Throws a clear
 * error when no instance can be had; the caller's test then fails (never skips).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'rc-pg-'));
  const dataDir = join(dir, 'data');
  const port = await freePort();
  if (asRoot) {
    const owner = spawnSync('chown', ['postgres:postgres', dir]);
    if (owner.status !== 0) {
      throw new Error(`cannot hand ${dir} to the postgres user: ${owner.stderr}`);
    }
    chmodSync(dir, 0o700);
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]]
      : [join(bin, cmd), args];
    const res = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
    if (res.status !== 0) {
      throw new Error(
        `private PostgreSQL: ${cmd} ${args.join(' ')} failed (${res.status ?? res.error?.message}):\n${res.stdout}\n${res.stderr}`,
      );
    }
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  start();
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    destroy: () => {
      if (stopped) return;
      stopped = true;
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The server built as `npm run build` builds it (scripts/build-server.mjs) into a folder of its own
 * under tests/.tmp (inside the repository: its imports find node_modules); its main.js. The
 * caller removes `dir`.
 */
export function buildServer(): { main: string; dir: string } {
  const dir = join(
    REPO_ROOT,
    'tests',
    '.tmp',
    `dist-server-${process.pid}-${randomBytes(3).toString('hex')}`,
  );
  const res = spawnSync(process.execPath, ['scripts/build-server.mjs', dir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (res.status !== 0) throw new Error(`scripts/build-server.mjs failed:\n${res.stdout}\n${res.stderr}`);
  return { main: join(dir, 'main.js'), dir };
}

/** A scratch folder under the system temp dir, removed by the caller. */
export const scratchDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/**
 * A TCP proxy in front of PostgreSQL that plays a failover: `cut()` closes every connection it holds
 * to the server (their backends end) and tells the clients nothing, so the pool keeps them as idle
 * and healthy; a client's next write on such a connection is answered with a TCP reset, as a new host
 * that took over the address answers for a connection it never had. New connections go through.
 */
export async function startFailoverProxy(target: { host: string; port: number }) {
  type Pair = { client: Socket; upstream: Socket; cut: boolean };
  const pairs = new Set<Pair>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair: Pair = { client, upstream, cut: false };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (pair.cut) client.resetAndDestroy();
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.cut) client.write(chunk);
    });
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.on('close', end);
    upstream.on('close', () => {
      if (!pair.cut) end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    /** `url` with the proxy's host and port. */
    via: (url: string) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    /** Cuts every connection open now; returns how many. */
    cut: (): number => {
      let n = 0;
      for (const pair of pairs) {
        if (pair.cut) continue;
        pair.cut = true;
        pair.upstream.destroy();
        n++;
      }
      return n;
    },
    /** While `true`, new connections are closed at once (the database unreachable); `false` again to let them through. */
    refuse: (on: boolean) => {
      refusing = on;
    },
    close: async () => {
      for (const pair of pairs) pair.client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
