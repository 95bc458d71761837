import { describe, expect, it } from 'vitest';
import { previousSecretExpiresAt, rotateSecrets, signingSecrets } from './webhooks';

/** The rotation rule of decision 065, without HTTP or a database. */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const t0 = new Date('2026-03-02T09:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('secret rotation', () => {
  it('the old secret signs beside the new one until the overlap ends, then only the new one', () => {
    const next = rotateSecrets({ secret: 'whsec_old', previousSecrets: [] }, t0, DAY);
    expect(next.secret).toMatch(/^whsec_/);
    expect(next.previousSecretExpiresAt).toEqual(at(DAY));
    const endpoint = { secret: next.secret, previousSecrets: next.previousSecrets };
    expect(signingSecrets(endpoint, at(DAY - 1))).toEqual(['whsec_old', next.secret]);
    expect(signingSecrets(endpoint, at(DAY))).toEqual([next.secret]);
    expect(previousSecretExpiresAt(endpoint.previousSecrets, at(DAY - 1))).toEqual(at(DAY));
    expect(previousSecretExpiresAt(endpoint.previousSecrets, at(DAY))).toBeNull();
  });

  it('rotations within the day keep the older secrets signing (at most three); ended ones are dropped', () => {
    let endpoint = { secret: 'whsec_0', previousSecrets: [] as { secret: string; until: string }[] };
    const secrets = ['whsec_0'];
    for (let i = 1; i <= 4; i++) {
      const next = rotateSecrets(endpoint, at(i * HOUR), DAY);
      endpoint = { secret: next.secret, previousSecrets: next.previousSecrets };
      secrets.push(next.secret);
    }
    // Four rotations: the three newest old secrets, oldest first, then the current one.
    expect(signingSecrets(endpoint, at(5 * HOUR))).toEqual(secrets.slice(1));
    // A rotation after every overlap ended keeps only the secret it replaces.
    const later = rotateSecrets(endpoint, at(10 * DAY), DAY);
    expect(later.previousSecrets.map((p) => p.secret)).toEqual([endpoint.secret]);
  });
});
