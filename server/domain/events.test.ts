import { describe, expect, it } from 'vitest';
import { actorOf, ipLocation, isLocalIp, normalizeIp, scrubPayload } from './events';

describe('client addresses', () => {
  it('normalises IPv4-mapped, bracketed and zoned addresses; rejects junk', () => {
    expect(normalizeIp('::ffff:192.168.0.7')).toBe('192.168.0.7');
    expect(normalizeIp('[::1]')).toBe('::1');
    expect(normalizeIp('fe80::1%eth0')).toBe('fe80::1');
    expect(normalizeIp(' 41.58.1.1 ')).toBe('41.58.1.1');
    expect(normalizeIp('not-an-ip')).toBeNull();
    expect(normalizeIp('')).toBeNull();
    expect(normalizeIp(undefined)).toBeNull();
  });

  it('reads loopback and private ranges as Local network', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.4.4',
      '172.31.255.255',
      '192.168.1.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '100.64.0.1',
    ])
      expect(ipLocation(ip), ip).toBe('Local network');
    expect(isLocalIp('172.32.0.1')).toBe(false);
  });

  it('locates public addresses offline (geoip-lite), else Unknown', () => {
    expect(ipLocation('105.112.30.193')).toMatch(/Nigeria$/);
    expect(ipLocation('garbage')).toBe('Unknown');
  });
});

describe('event payloads', () => {
  it('never keep secrets, at any depth', () => {
    expect(
      scrubPayload({
        email: 'a@b.co',
        password: 'x',
        newPassword: 'y',
        resetCode: 'z',
        nested: { refreshToken: 't', otp: '123456', ok: 1, list: [{ passwordHash: 'h', name: 'n' }] },
      }),
    ).toEqual({ email: 'a@b.co', nested: { ok: 1, list: [{ name: 'n' }] } });
  });
});

describe('actors', () => {
  it('names admins as Reward Club and partner staff by their organisation', () => {
    expect(actorOf({ id: 1, firstName: 'Ada', lastName: 'Obi', userType: 'ADMIN' })).toMatchObject({
      type: 'ADMIN',
      name: 'Ada Obi',
      organization: 'Reward Club',
    });
    expect(
      actorOf({
        id: 2,
        firstName: 'Segun',
        lastName: 'Ade',
        userType: 'PARTNER',
        organizationName: 'Eko Grill House',
      }),
    ).toMatchObject({ type: 'PARTNER', organization: 'Eko Grill House' });
  });
});
