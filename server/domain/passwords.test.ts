import { describe, expect, it } from 'vitest';
import { createPasswordHasher, TEST_PASSWORD_HASHING } from './passwords';

/** docs/product.md#auth: argon2id hashes; the production cost is OWASP's argon2id baseline. */
describe('password hashing', () => {
  it('by default argon2id at 19 MiB, 2 passes, 1 lane (OWASP)', async () => {
    const hasher = createPasswordHasher();
    const stored = await hasher.hash('Sup3rSecret');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(stored, 'Sup3rSecret')).toBe(true);
  });

  it('hashes with the cost it is given', async () => {
    const hasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 2 });
    const stored = await hasher.hash('Sup3rSecret');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=2\$/);
    expect(await hasher.verify(stored, 'Sup3rSecret')).toBe(true);
  });

  it('verifies the right password only; a damaged hash is a failure, never an error', async () => {
    const hasher = createPasswordHasher(TEST_PASSWORD_HASHING);
    const stored = await hasher.hash('Sup3rSecret');
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(stored).not.toContain('Sup3rSecret');
    expect(await hasher.hash('Sup3rSecret')).not.toBe(stored);
    expect(await hasher.verify(stored, 'Sup3rSecret')).toBe(true);
    expect(await hasher.verify(stored, 'sup3rSecret')).toBe(false);
    expect(await hasher.verify('not a hash', 'Sup3rSecret')).toBe(false);
    expect(await hasher.verify('', '')).toBe(false);
  });

  it('an unknown account spends a verification too, and it never succeeds or throws', async () => {
    const hasher = createPasswordHasher(TEST_PASSWORD_HASHING);
    await expect(hasher.verifyDummy('Sup3rSecret')).resolves.toBeUndefined();
    await expect(hasher.verifyDummy('')).resolves.toBeUndefined();
  });
});
