import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../tests/setup/faults';
import { createRole, isPostgres } from '../tests/setup/server';
import { openDatabase } from './db/client';
import { roles } from './db/schema';

/**
 * Issue 33 item 6: `npm run db:restore` on PostgreSQL printed a pg_restore command and exited 1. It
 * restores with pg_restore (all or nothing), refuses a database that already holds the product's
 * tables unless --clean is given, and says plainly when the PostgreSQL client is missing. This is the
 * restore drill of docs/operations.md, as a test: back up, restore into an empty database, find the
 * data, restore over it with --clean.
 */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

function runScript(script: string, args: string[], env: Record<string, string>) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', `server/${script}.ts`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: res.status, output: `${res.stdout}${res.stderr}` };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

const roleNames = async (url: string) => {
  const db = await openDatabase({ kind: 'postgres', url });
  try {
    return (await db.db.select({ name: roles.name }).from(roles)).map((r) => r.name);
  } finally {
    await db.close();
  }
};

describe.skipIf(!isPostgres)('npm run db:restore on PostgreSQL', () => {
  it('restores a pg_dump backup into an empty database, refuses a full one, replaces with --clean', async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const work = mkdtempSync(join(tmpdir(), 'rc-restore-'));
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    const source = await createScratchDatabase(serverUrl, 'rc_rsrc');
    cleanups.push(() => source.drop());
    const target = await createScratchDatabase(serverUrl, 'rc_rdst');
    cleanups.push(() => target.drop());

    const role = `Drill role ${randomBytes(3).toString('hex')}`;
    const db = await openDatabase({ kind: 'postgres', url: source.url });
    await createRole(db.db, role, ['roles.view']);
    await db.close();

    const backup = runScript('backup', [join(work, 'backups')], { DATABASE_URL: source.url, DATA_DIR: work });
    expect(backup.code, backup.output).toBe(0);
    const file = backup.output.trim().split('\n').at(-1)!;
    expect(file).toMatch(/reward-club-.*\.dump$/);

    // Into the empty database.
    const restore = runScript('restore', [file], { DATABASE_URL: target.url, DATA_DIR: work });
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain('Restored');
    expect(await roleNames(target.url)).toContain(role);

    // Over it: refused, nothing changed, the way out named.
    const again = runScript('restore', [file], { DATABASE_URL: target.url, DATA_DIR: work });
    expect(again.code).toBe(1);
    expect(again.output).toContain("already holds this product's tables");
    expect(again.output).toContain('--clean');
    expect(again.output).not.toMatch(/\n\s+at /);

    // With --clean: a role added since the backup is gone, the backup's data is there.
    const later = await openDatabase({ kind: 'postgres', url: target.url });
    await createRole(later.db, 'Added after the backup', ['roles.view']);
    await later.close();
    const clean = runScript('restore', [file, '--clean'], { DATABASE_URL: target.url, DATA_DIR: work });
    expect(clean.code, clean.output).toBe(0);
    const names = await roleNames(target.url);
    expect(names).toContain(role);
    expect(names).not.toContain('Added after the backup');
  }, 180_000);

  it('says to install the PostgreSQL client when pg_restore is missing', async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const work = mkdtempSync(join(tmpdir(), 'rc-restore-'));
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    const empty = await createScratchDatabase(serverUrl, 'rc_rnone');
    cleanups.push(() => empty.drop());
    const file = join(work, 'some.dump');
    writeFileSync(file, 'PGDMP');
    const res = runScript('restore', [file], {
      DATABASE_URL: empty.url,
      DATA_DIR: work,
      PATH: '/nonexistent',
    });
    expect(res.code).toBe(1);
    expect(res.output).toContain('pg_restore could not run');
    expect(res.output).toContain('install the PostgreSQL client');
    expect(res.output).not.toMatch(/\n\s+at /);
  }, 60_000);
});
