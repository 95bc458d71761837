import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpPglite } from '../../server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a new, migrated PGlite database (dumpPglite), for openTestDatabase to start from. */
    pgliteTemplate?: string;
  }
}

/**
 * Global setup of the `server` project (PGlite): the committed migrations are applied once per run to
 * a new database, whose image every test file then loads, instead of paying initdb and the migrations
 * again per file (seconds of CPU each; docs/decisions/038-ci-time.md). The files still get a database
 * of their own, identical to a freshly migrated one.
 */
export default async function setup(project: TestProject) {
  const file = join(tmpdir(), `rc-pglite-template-${process.pid}.tar`);
  const image = await dumpPglite();
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(file, { force: true });
}
