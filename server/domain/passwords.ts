import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id cost parameters (memory in KiB). */
export type PasswordHashingOptions = { memoryCost: number; timeCost: number; parallelism: number };

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const DEFAULT_PASSWORD_HASHING: PasswordHashingOptions = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/** Cheap settings for the test suite only. */
export const TEST_PASSWORD_HASHING: PasswordHashingOptions = { memoryCost: 256, timeCost: 1, parallelism: 1 };

/** `Algorithm.Argon2id` (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;

export type PasswordHasher = {
  hash: (password: string) => Promise<string>;
  verify: (storedHash: string, password: string) => Promise<boolean>;
  /** Spends the time of a real verification, for unknown accounts, so timing does not reveal them. */
  verifyDummy: (password: string) => Promise<void>;
};

export function createPasswordHasher(
  options: PasswordHashingOptions = DEFAULT_PASSWORD_HASHING,
): PasswordHasher {
  const argonOptions = { ...options, algorithm: ARGON2ID as never };
  const doHash = (password: string) => hash(password, argonOptions);
  // Made at once (not on the first unknown email, which would then take twice as long).
  const dummy = doHash(randomBytes(16).toString('hex'));
  dummy.catch(() => {}); // surfaces in verifyDummy
  const doVerify = async (storedHash: string, password: string) => {
    try {
      return await verify(storedHash, password);
    } catch {
      return false;
    }
  };
  return {
    hash: doHash,
    verify: doVerify,
    verifyDummy: async (password) => {
      await doVerify(await dummy, password);
    },
  };
}
