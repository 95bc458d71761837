import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'rc-lock-'));
  dirs.push(d);
  return d;
};

describe('lockDataDir', () => {
  it('writes our pid, refuses a second holder naming the directory and the pid, and releases', async () => {
    const dir = tempDir();
    // Another live process holds it.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const held = lockDataDir(dir, other.pid!);
      expect(readFileSync(held.path, 'utf8').trim()).toBe(String(other.pid));
      let error: unknown;
      try {
        lockDataDir(dir);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as Error).message).toContain(dir);
      expect((error as Error).message).toContain(`pid ${other.pid}`);
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
    }
    // The holder died without releasing: its lock is stale and taken over.
    const mine = lockDataDir(dir);
    expect(readFileSync(mine.path, 'utf8').trim()).toBe(String(process.pid));
    mine.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('takes over garbage, and release leaves a lock that is no longer ours alone', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), 'not a pid');
    const mine = lockDataDir(dir);
    writeFileSync(mine.path, '999999999\n');
    mine.release();
    expect(readFileSync(mine.path, 'utf8')).toBe('999999999\n');
  });
});
