import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpPglite, openDatabase, runOnce } from '../../server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a new, migrated PGlite database (dumpPglite), for openTestDatabase to start from. */
    pgliteTemplate?: string;
    /** A migrated database on TEST_DATABASE_URL's server that openTestDatabase copies (CREATE DATABASE … TEMPLATE). */
    postgresTemplate?: string;
  }
}

/**
 * Global setup of the server projects: the committed migrations are applied once per run to a new
 * database, which every test file then copies, instead of paying PGlite's initdb and the migrations
 * again per file (seconds each; docs/decisions/038-ci-time.md). The files still get a database of
 * their own, identical to a freshly migrated one.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (project.name === 'server-postgres' && serverUrl) {
    const name = `rc_template_${process.pid}`;
    await runOnce(serverUrl, `drop database if exists "${name}" with (force)`);
    await runOnce(serverUrl, `create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 1 });
    await database.close();
    project.provide('postgresTemplate', name);
    return () => runOnce(serverUrl, `drop database if exists "${name}" with (force)`);
  }
  const file = join(tmpdir(), `rc-pglite-template-${process.pid}.tar`);
  const image = await dumpPglite();
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(file, { force: true });
}
