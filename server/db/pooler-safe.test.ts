import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server works behind PgBouncer in transaction pooling mode (docs/operations.md): a client's
 * session is not its own between transactions there, so the server must use nothing that lives in a
 * session: no session advisory lock (`pg_advisory_lock`; `pg_advisory_xact_lock` only), no `SET`
 * outside a transaction (`SET LOCAL` or `set_config(..., true)` only), no LISTEN/NOTIFY, no named
 * prepared statements (node-postgres's unnamed ones are fine: each is parsed and run in one go).
 * `npm run test:pgbouncer` runs this beside tests that exercise those paths through PgBouncer.
 */
const SERVER = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const SESSION_STATE: [string, RegExp][] = [
  ['session advisory lock', /pg_(try_)?advisory_lock(_shared)?\s*\(/i],
  ['LISTEN/NOTIFY', /\b(LISTEN|UNLISTEN|NOTIFY)\s+["\w]|pg_notify\s*\(/],
  ['session-level SET', /(sql`|query\(\s*['"`])\s*set\s+(?!local\b)(session\s+)?\w+/i],
  ['set_config for the session', /set_config\s*\([^)]*,\s*false\s*\)/i],
  ['named prepared statement', /\.prepare\(\s*['"`]|\bname:\s*['"`][\w-]+['"`]\s*,\s*text:/],
];

describe('nothing in the server relies on a database session (PgBouncer transaction pooling)', () => {
  const files = sources(SERVER);
  it('finds the server sources', () => {
    expect(files.length).toBeGreaterThan(50);
  });
  for (const [what, pattern] of SESSION_STATE) {
    it(`no ${what}`, () => {
      const found = files.flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(SERVER, f)}:${i + 1}` }))
          .filter(({ line }) => pattern.test(line) && !/^\s*(\*|\/\/)/.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
      expect(found).toEqual([]);
    });
  }
});
