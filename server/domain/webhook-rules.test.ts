import { describe, expect, it } from 'vitest';
import {
  generateMessageId,
  generateWebhookSecret,
  isForbiddenAddress,
  isForbiddenHost,
  previousSecretExpiresAt,
  retryDelayMs,
  rotateSecrets,
  signingSecrets,
  WEBHOOK_BACKOFF_MS,
  WEBHOOK_MAX_ATTEMPTS,
  webhookDisabledMessage,
} from './webhooks';

/** Decision 027's destinations, retries, secrets and ids, and decision 065's rotation, without HTTP. */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const t0 = new Date('2026-03-02T09:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('where a delivery may not go (decision 027: private, loopback, link-local, CGNAT, documentation, benchmarking, multicast, reserved, IPv4-mapped, NAT64)', () => {
  it('refuses every address of those ranges, IPv4 and IPv6, and anything that is not an address', () => {
    for (const ip of [
      '0.0.0.1', // this network
      '10.0.0.1',
      '10.255.255.255',
      '100.64.0.1', // carrier-grade NAT
      '100.127.255.255',
      '127.0.0.1', // loopback
      '169.254.169.254', // link-local (cloud metadata)
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8', // IETF protocol assignments
      '192.0.2.10', // documentation
      '192.168.1.10',
      '198.18.0.1', // benchmarking
      '198.19.255.255',
      '198.51.100.7', // documentation
      '203.0.113.9', // documentation
      '224.0.0.1', // multicast
      '239.255.255.250',
      '240.0.0.1', // reserved
      '255.255.255.255', // broadcast
      '::', // unspecified
      '::1', // loopback
      '::ffff:7f00:1', // IPv4-mapped 127.0.0.1, hex spelling
      '::ffff:808:808', // IPv4-mapped, whatever the IPv4 (8.8.8.8 here)
      '64:ff9b::808:808', // NAT64
      '100::1', // discard-only
      '2001:db8::1', // documentation
      'fc00::1', // unique local
      'fdff:ffff::1',
      'fe80::1', // link-local
      'ff02::1', // multicast
      'not-an-address',
      '',
    ])
      expect(isForbiddenAddress(ip), ip).toBe(true);
  });

  it('lets public addresses through, just outside each range too', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '11.0.0.1',
      '100.63.255.255',
      '100.128.0.1',
      '126.255.255.255',
      '128.0.0.1',
      '169.253.255.255',
      '172.15.255.255',
      '172.32.0.1',
      '192.0.1.1',
      '192.0.3.1',
      '192.167.255.255',
      '192.169.0.1',
      '198.17.255.255',
      '198.20.0.1',
      '198.51.101.1',
      '203.0.114.1',
      '223.255.255.255',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '64:ff9c::1',
      'fbff::1',
      'fec0::1',
    ])
      expect(isForbiddenAddress(ip), ip).toBe(false);
  });

  it('reads an address in brackets, with spaces around, and a mapped IPv4 in dotted form as that IPv4', () => {
    expect(isForbiddenAddress('[::1]')).toBe(true);
    expect(isForbiddenAddress('[2606:4700:4700::1111]')).toBe(false);
    expect(isForbiddenAddress(' 10.0.0.1 ')).toBe(true);
    expect(isForbiddenAddress(' 8.8.8.8 ')).toBe(false);
    expect(isForbiddenAddress('::FFFF:10.1.2.3')).toBe(true);
  });

  it('an IPv4-mapped address is refused however it is spelt, whatever the IPv4 inside', () => {
    for (const ip of ['::ffff:8.8.8.8', '::FFFF:93.184.216.34', '::ffff:5db8:d822', '[::ffff:8.8.8.8]'])
      expect(isForbiddenAddress(ip), ip).toBe(true);
  });

  it('text around an address, or half a pair of brackets, is no address', () => {
    for (const ip of ['[8.8.8.8', '8.8.8.8]', 'x8.8.8.8]', '[8.8.8.8x', '8.8.8.8/32', '8.8.8.8:443'])
      expect(isForbiddenAddress(ip), ip).toBe(true);
  });

  it('at creation: localhost (any case, any subdomain, a trailing dot) and forbidden address literals; names are judged at delivery', () => {
    for (const url of [
      'https://localhost/hook',
      'http://LOCALHOST:8080/hook',
      'https://localhost./hook',
      'https://api.localhost/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3:8443/hook',
      'https://[::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
    ])
      expect(isForbiddenHost(url), url).toBe(true);
    for (const url of [
      'https://hooks.example.com/in',
      'https://localhost.example.com/hook',
      'https://mylocalhost/hook',
      'https://8.8.8.8/hook',
      'https://[2606:4700:4700::1111]/hook',
      // A name that may resolve to a private address is judged after DNS, not here.
      'https://internal.corp/hook',
    ])
      expect(isForbiddenHost(url), url).toBe(false);
  });
});

describe('retries (decision 027)', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h after the 1st to 7th failure; the 8th gives up', () => {
    const MIN = 60_000;
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([
      5_000,
      5 * MIN,
      30 * MIN,
      2 * HOUR,
      5 * HOUR,
      8 * HOUR,
      8 * HOUR,
    ]);
    expect(retryDelayMs(8)).toBeNull();
    expect(retryDelayMs(0)).toBeNull();
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(8);
    // 23 h 35 min 5 s from the first attempt to the last.
    expect(WEBHOOK_BACKOFF_MS.reduce((a, b) => a + b, 0)).toBe(23 * HOUR + 35 * 60_000 + 5_000);
  });
});

describe('secrets and message ids (Standard Webhooks, decision 027)', () => {
  it('a secret is whsec_ and the base64 of 32 random bytes, new each time', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('a message id is msg_ and 16 random bytes in hex, new each time', () => {
    const a = generateMessageId();
    expect(a).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(generateMessageId()).not.toBe(a);
  });

  it("webhook.disabled names the endpoint, its partner, the reason and when, and goes to the endpoint's partner", () => {
    const at = new Date('2026-03-02T10:00:00.000Z');
    expect(
      webhookDisabledMessage({ id: 7, url: 'https://till.example.com/in', partnerId: 3 }, 'Turned off', at),
    ).toEqual({
      type: 'webhook.disabled',
      partnerId: 3,
      data: {
        webhookId: 7,
        partnerId: 3,
        url: 'https://till.example.com/in',
        reason: 'Turned off',
        disabledAt: '2026-03-02T10:00:00.000Z',
      },
    });
  });

  it('a rotation keeps only old secrets whose overlap is still running when it happens', () => {
    const previousSecrets = [
      { secret: 'whsec_ended', until: at(HOUR).toISOString() },
      { secret: 'whsec_running', until: at(3 * HOUR).toISOString() },
    ];
    const next = rotateSecrets({ secret: 'whsec_current', previousSecrets }, at(HOUR), DAY);
    expect(next.previousSecrets).toEqual([
      { secret: 'whsec_running', until: at(3 * HOUR).toISOString() },
      { secret: 'whsec_current', until: at(HOUR + DAY).toISOString() },
    ]);
    // The latest running overlap, not the first one listed.
    expect(previousSecretExpiresAt(next.previousSecrets, at(2 * HOUR))).toEqual(at(HOUR + DAY));
    expect(previousSecretExpiresAt(next.previousSecrets, at(4 * HOUR))).toEqual(at(HOUR + DAY));
    expect(
      signingSecrets({ secret: next.secret, previousSecrets: next.previousSecrets }, at(4 * HOUR)),
    ).toEqual(['whsec_current', next.secret]);
  });
});
