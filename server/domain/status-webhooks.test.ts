import { describe, expect, it } from 'vitest';
import { apiKeyRevokedMessage, partnerStatusMessage } from './status-webhooks';

/*
 * The messages of decision 065's table (docs/decisions/065-webhook-rotation-and-till-events.md):
 * `partner.blocked` / `partner.unblocked` to the partner's endpoints and the club-wide ones, with ids
 * and the status; `api_key.revoked` with the key's id, name and prefix, a partner key's to that
 * partner and club-wide, a club key's club-wide only.
 */

const at = new Date('2026-03-02T09:00:00.000Z');

describe('partnerStatusMessage', () => {
  it('a blocked partner is partner.blocked, for that partner, with its id and status', () => {
    expect(partnerStatusMessage(3, 'BLOCKED', at)).toEqual({
      type: 'partner.blocked',
      partnerId: 3,
      data: { partnerId: 3, accountStatus: 'BLOCKED', changedAt: '2026-03-02T09:00:00.000Z' },
    });
  });

  it('an unblocked one is partner.unblocked', () => {
    expect(partnerStatusMessage(3, 'ACTIVE', at)).toEqual({
      type: 'partner.unblocked',
      partnerId: 3,
      data: { partnerId: 3, accountStatus: 'ACTIVE', changedAt: '2026-03-02T09:00:00.000Z' },
    });
  });
});

describe('apiKeyRevokedMessage', () => {
  it("a partner's key: to that partner (and club-wide), with the key's id, name and prefix", () => {
    const m = apiKeyRevokedMessage({ id: 11, partnerId: 3, name: 'Till', prefix: '0123456789ab' }, at);
    expect(m).toEqual({
      type: 'api_key.revoked',
      partnerId: 3,
      data: {
        apiKeyId: 11,
        partnerId: 3,
        name: 'Till',
        prefix: '0123456789ab',
        revokedAt: '2026-03-02T09:00:00.000Z',
      },
    });
    expect(m.partnerOnly).toBeUndefined();
  });

  it('a club key: club-wide only (no partner)', () => {
    expect(
      apiKeyRevokedMessage({ id: 12, partnerId: null, name: 'CRM', prefix: 'ba9876543210' }, at),
    ).toEqual({
      type: 'api_key.revoked',
      partnerId: null,
      data: {
        apiKeyId: 12,
        partnerId: null,
        name: 'CRM',
        prefix: 'ba9876543210',
        revokedAt: '2026-03-02T09:00:00.000Z',
      },
    });
  });
});
