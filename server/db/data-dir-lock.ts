import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The lock file inside DATA_DIR; it holds the pid of the process that owns the directory. */
export const LOCK_FILE = 'server.pid';

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dir} is in use by another server process (pid ${pid}). ` +
        'The embedded database (PGlite) allows one process per data directory: stop that process, ' +
        'or give this one another DATA_DIR, or use PostgreSQL (DATABASE_URL) to run several instances.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Whether a process with this pid exists (EPERM: it exists, owned by someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes DATA_DIR for this process: creates `DATA_DIR/server.pid` exclusively (O_EXCL, atomic on one
 * machine) with our pid. A lock whose pid no longer runs (a crash, a SIGKILL) is stale: removed and
 * taken over. A live holder: DataDirLockedError naming the directory and the pid. Returns `release`,
 * which removes the file if it is still ours.
 */
export function lockDataDir(dir: string, pid = process.pid): { path: string; release: () => void } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        path,
        release: () => {
          if (released) return;
          released = true;
          try {
            if (readFileSync(path, 'utf8').trim() === String(pid)) rmSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = Number.NaN;
    try {
      holder = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    } catch {
      continue; // removed meanwhile: try again
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== pid && processAlive(holder)) {
      throw new DataDirLockedError(dir, holder);
    }
    // Stale (dead pid, our own pid from a previous life, or garbage): take it over.
    rmSync(path, { force: true });
  }
  throw new Error(`Could not take the lock ${path}: it keeps changing; is another server starting?`);
}
