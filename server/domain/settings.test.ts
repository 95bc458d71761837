import { describe, expect, it } from 'vitest';
import { setupTestServer } from '../../tests/setup/server';
import { resolveJwtSecret } from './settings';

const t = setupTestServer();

describe('resolveJwtSecret', () => {
  it('uses JWT_SECRET when set', async () => {
    expect(await resolveJwtSecret(t.db, 'x'.repeat(40))).toBe('x'.repeat(40));
  });

  it('otherwise generates one once and keeps it in the database for every instance', async () => {
    const first = await resolveJwtSecret(t.db, undefined);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const [a, b] = await Promise.all([resolveJwtSecret(t.db, undefined), resolveJwtSecret(t.db, undefined)]);
    expect([a, b]).toEqual([first, first]);
  });
});
