import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPartner, setupTestServer } from '../../tests/setup/server';
import { events, webhookDeliveries, webhookEndpoints } from '../db/schema';
import type { AuthUser } from '../types';
import {
  accountStatusEvent,
  actions,
  actorOf,
  actorOfAuthUser,
  ipLocation,
  isLocalIp,
  type NewEvent,
  normalizeIp,
  recordEvent,
  recordEvents,
  scrubPayload,
} from './events';

/**
 * The event log (docs/product.md: time, actor and actor type, a sentence, entity, payload, IP address
 * and an offline GeoIP location; loopback and private ranges read 'Local network'): who an event
 * names as its actor (decision 028: a key is `API key <name>`), what its sentence says, what reaches
 * the row, and the webhook outbox written beside it (decision 027).
 */

describe('the sentences of the activity log', () => {
  /** Every sentence made from its arguments: the call, and the words it must name. */
  const made: [string, string, (string | number)[]][] = [
    ['createdRole', actions.createdRole('Cashier'), ['Cashier']],
    ['updatedRole', actions.updatedRole('Cashier'), ['Cashier']],
    ['deletedRole', actions.deletedRole('Cashier'), ['Cashier']],
    ['invitedStaff', actions.invitedStaff('Bisi Ade'), ['Bisi Ade']],
    ['updatedStaff', actions.updatedStaff('Bisi Ade', ['email']), ['Bisi Ade', 'email']],
    ['deletedStaff', actions.deletedStaff('Bisi Ade'), ['Bisi Ade']],
    ['addedPartner', actions.addedPartner('Eko Grill'), ['Eko Grill']],
    ['updatedPartner', actions.updatedPartner('Eko Grill', ['address']), ['Eko Grill', 'address']],
    ['blockedPartner', actions.blockedPartner('Eko Grill'), ['Eko Grill']],
    ['unblockedPartner', actions.unblockedPartner('Eko Grill'), ['Eko Grill']],
    ['deletedPartner', actions.deletedPartner('Eko Grill'), ['Eko Grill']],
    ['updatedClient', actions.updatedClient('Kemi Obi', ['phone']), ['Kemi Obi', 'phone']],
    ['blockedClient', actions.blockedClient('Kemi Obi'), ['Kemi Obi']],
    ['unblockedClient', actions.unblockedClient('Kemi Obi'), ['Kemi Obi']],
    ['deletedClient', actions.deletedClient('Kemi Obi'), ['Kemi Obi']],
    ['addedClient', actions.addedClient('Kemi Obi', 'SUB-7'), ['Kemi Obi', 'SUB-7']],
    ['importedCustomers', actions.importedCustomers('may.csv', '3 added'), ['may.csv', '3 added']],
    ['importFailed', actions.importFailed('may.csv', 'bad header'), ['may.csv', 'bad header']],
    ['createdClubKey', actions.createdClubKey('Nightly sync'), ['Nightly sync']],
    ['revokedClubKey', actions.revokedClubKey('Nightly sync'), ['Nightly sync']],
    ['createdService', actions.createdService('Valet'), ['Valet']],
    ['updatedService', actions.updatedService('Valet'), ['Valet']],
    ['deletedService', actions.deletedService('Valet'), ['Valet']],
    ['recordedVisit', actions.recordedVisit('Kemi Obi', 'Eko Grill'), ['Kemi Obi', 'Eko Grill']],
    ['approvedVisit', actions.approvedVisit('Kemi Obi', 'Eko Grill'), ['Kemi Obi', 'Eko Grill']],
    [
      'rejectedVisit',
      actions.rejectedVisit('Kemi Obi', 'Eko Grill', 'receipt unreadable'),
      ['Kemi Obi', 'Eko Grill', 'receipt unreadable'],
    ],
    [
      'setVisitReviewRules',
      actions.setVisitReviewRules('Eko Grill', 'receipt required'),
      ['Eko Grill', 'receipt required'],
    ],
    [
      'issuedReward',
      actions.issuedReward('gift card', 'GC-1', 'Kemi Obi', 'Eko Grill'),
      ['gift card', 'GC-1', 'Kemi Obi', 'Eko Grill'],
    ],
    ['sentRedemptionCode', actions.sentRedemptionCode('GC-1', 'Kemi Obi'), ['GC-1', 'Kemi Obi']],
    ['redemptionCodeNotSent', actions.redemptionCodeNotSent('GC-1'), ['GC-1']],
    ['wrongRedemptionCode', actions.wrongRedemptionCode('Kemi Obi', 2), ['Kemi Obi', 2]],
    [
      'redeemedGiftcard',
      actions.redeemedGiftcard('₦500.00', 'GC-1', 'Kemi Obi'),
      ['₦500.00', 'GC-1', 'Kemi Obi'],
    ],
    ['redeemedCoupon', actions.redeemedCoupon('CP-1', 'Kemi Obi'), ['CP-1', 'Kemi Obi']],
    ['rewardExpired', actions.rewardExpired('GC-1'), ['GC-1']],
    [
      'reversedRedemption',
      actions.reversedRedemption('₦500.00', 'GC-1', 'till error'),
      ['₦500.00', 'GC-1', 'till error'],
    ],
    [
      'createdWebhook',
      actions.createdWebhook('https://till.example.com/in'),
      ['https://till.example.com/in'],
    ],
    [
      'updatedWebhook',
      actions.updatedWebhook('https://till.example.com/in', ['events']),
      ['https://till.example.com/in', 'events'],
    ],
    ['createdApiKey', actions.createdApiKey('Front till', 'Eko Grill'), ['Front till', 'Eko Grill']],
    ['revokedApiKey', actions.revokedApiKey('Front till', 'Eko Grill'), ['Front till', 'Eko Grill']],
    [
      'deletedWebhook',
      actions.deletedWebhook('https://till.example.com/in'),
      ['https://till.example.com/in'],
    ],
    [
      'rotatedWebhookSecret',
      actions.rotatedWebhookSecret('https://till.example.com/in'),
      ['https://till.example.com/in'],
    ],
    [
      'disabledWebhook',
      actions.disabledWebhook('https://till.example.com/in'),
      ['https://till.example.com/in'],
    ],
    [
      'replayedWebhookDelivery',
      actions.replayedWebhookDelivery('msg_1', 'https://till.example.com/in'),
      ['msg_1', 'https://till.example.com/in'],
    ],
    ['sentLinkCode', actions.sentLinkCode('Eko Grill'), ['Eko Grill']],
    ['linkedCustomer', actions.linkedCustomer('Kemi Obi', 'Eko Grill'), ['Kemi Obi', 'Eko Grill']],
    ['wrongLinkCode', actions.wrongLinkCode(3), [3]],
    ['unlinkedCustomer', actions.unlinkedCustomer('Kemi Obi', 'Eko Grill'), ['Kemi Obi', 'Eko Grill']],
    ['exportedCustomerData', actions.exportedCustomerData('Kemi Obi'), ['Kemi Obi']],
    ['erasedCustomer', actions.erasedCustomer('#12'), ['#12']],
    ['restoredClient', actions.restoredClient('Kemi Obi'), ['Kemi Obi']],
    ['createdCampaign', actions.createdCampaign('May promo', 'Eko Grill'), ['May promo', 'Eko Grill']],
    ['submittedCampaign', actions.submittedCampaign('May promo', 120), ['May promo', 120]],
    [
      'campaignAwaitsApproval',
      actions.campaignAwaitsApproval('May promo', 'over ₦1,000,000'),
      ['May promo', 'over ₦1,000,000'],
    ],
    ['approvedCampaign', actions.approvedCampaign('May promo'), ['May promo']],
    ['rejectedCampaign', actions.rejectedCampaign('May promo', 'too big'), ['May promo', 'too big']],
    ['cancelledCampaign', actions.cancelledCampaign('May promo'), ['May promo']],
    ['completedCampaign', actions.completedCampaign('May promo', '120 issued'), ['May promo', '120 issued']],
    [
      'failedCampaign',
      actions.failedCampaign('May promo', 'partner blocked'),
      ['May promo', 'partner blocked'],
    ],
    ['setApprovalThresholds', actions.setApprovalThresholds('₦50,000'), ['₦50,000']],
    [
      'requestedRewardApproval',
      actions.requestedRewardApproval('a gift card', 'over ₦50,000'),
      ['a gift card', 'over ₦50,000'],
    ],
    ['approvedRewardRequest', actions.approvedRewardRequest('a gift card'), ['a gift card']],
    [
      'rejectedRewardRequest',
      actions.rejectedRewardRequest('a gift card', 'no budget'),
      ['a gift card', 'no budget'],
    ],
    ['rewardRequestExpired', actions.rewardRequestExpired('a gift card', 7), ['a gift card', 7]],
    ['campaignExpired', actions.campaignExpired('May promo', 7), ['May promo', 7]],
    ['releasedExternalId', actions.releasedExternalId('SUB-7', '#12'), ['SUB-7', '#12']],
  ];
  const fixed = [
    actions.signedIn,
    actions.failedSignIn,
    actions.blockedSignIn,
    actions.signedOut,
    actions.tokenReuse,
    actions.resetRequested,
    actions.resetCompleted,
    actions.passwordChanged,
    actions.profileUpdated,
    actions.invitationAccepted,
  ];

  it('every sentence names what it is given and starts with a capital letter', () => {
    for (const [name, sentence, words] of made) {
      expect(sentence, name).toMatch(/^[A-Z]/);
      for (const word of words) expect(sentence, name).toContain(String(word));
    }
    for (const sentence of fixed) expect(sentence).toMatch(/^[A-Z][a-z]/);
  });

  it('no two things that happen read the same', () => {
    const all = [...made.map(([, sentence]) => sentence), ...fixed];
    expect(new Set(all).size).toBe(all.length);
    // Every action is in the list above: a new one gets a row here.
    expect(made.length + fixed.length).toBe(Object.keys(actions).length);
  });

  it("the webhook sentences are decision 027's and 065's", () => {
    expect(actions.disabledWebhook('https://till.example.com/in')).toBe(
      'Disabled webhook https://till.example.com/in after its deliveries kept failing',
    );
    expect(actions.rotatedWebhookSecret('https://till.example.com/in')).toBe(
      'Rotated the signing secret of webhook https://till.example.com/in',
    );
  });

  it('a rename names the name before; the same name or none is no rename', () => {
    for (const [renamed, plain, same] of [
      [
        actions.updatedRole('Customer Care', 'Helpdesk'),
        actions.updatedRole('Customer Care'),
        actions.updatedRole('Customer Care', 'Customer Care'),
      ],
      [
        actions.updatedService('Priority Reservations', 'Priority Booking'),
        actions.updatedService('Priority Reservations'),
        actions.updatedService('Priority Reservations', 'Priority Reservations'),
      ],
    ] as const) {
      expect(renamed).toMatch(/Helpdesk|Priority Booking/);
      expect(renamed).toContain('renamed');
      expect(plain).not.toContain('renamed');
      expect(plain).not.toContain('undefined');
      expect(same).toBe(plain);
      expect(renamed.startsWith(plain)).toBe(true);
    }
  });

  it('an update lists what changed, each change; with none, no empty list', () => {
    const cases = [
      [actions.updatedStaff, 'Bisi Ade'],
      [actions.updatedPartner, 'Eko Grill'],
      [actions.updatedClient, 'Kemi Obi'],
      [actions.updatedWebhook, 'https://till.example.com/in'],
    ] as const;
    for (const [sentence, name] of cases) {
      const two = sentence(name, ['email', 'phone']);
      expect(two).toContain('email');
      expect(two).toContain('phone');
      const none = sentence(name, []);
      expect(none).toContain(name);
      expect(none).not.toContain('(');
      expect(two.startsWith(none)).toBe(true);
    }
  });

  it('a wrong code names the try and the 5 allowed (decision 007)', () => {
    expect(actions.wrongRedemptionCode('Kemi Obi', 2)).toMatch(/\b2\b.*\b5\b/);
    expect(actions.wrongLinkCode(4)).toMatch(/\b4\b.*\b5\b/);
  });

  it('an expiry after one day says "1 day", after more "n days"', () => {
    expect(actions.rewardRequestExpired('a gift card', 1)).toMatch(/ 1 day$/);
    expect(actions.rewardRequestExpired('a gift card', 7)).toMatch(/ 7 days$/);
    expect(actions.campaignExpired('May promo', 1)).toMatch(/ 1 day$/);
    expect(actions.campaignExpired('May promo', 3)).toMatch(/ 3 days$/);
  });

  it("a status change: the new status's sentence, the status before in the payload", () => {
    const customer = { id: 12, accountStatus: 'ACTIVE' as const };
    const blocked = accountStatusEvent('customer', customer, 'Kemi Obi', 'BLOCKED');
    expect(blocked).toEqual({
      action: actions.blockedClient('Kemi Obi'),
      entity: 'customer',
      entityId: 12,
      payload: { accountStatus: 'BLOCKED', previousStatus: 'ACTIVE' },
    });
    expect(
      accountStatusEvent('customer', { id: 12, accountStatus: 'BLOCKED' }, 'Kemi Obi', 'ACTIVE').action,
    ).toBe(actions.unblockedClient('Kemi Obi'));
    expect(accountStatusEvent('partner', { id: 3, accountStatus: 'ACTIVE' }, 'Eko Grill', 'BLOCKED')).toEqual(
      {
        action: actions.blockedPartner('Eko Grill'),
        entity: 'partner',
        entityId: 3,
        payload: { accountStatus: 'BLOCKED', previousStatus: 'ACTIVE' },
      },
    );
    expect(
      accountStatusEvent('partner', { id: 3, accountStatus: 'BLOCKED' }, 'Eko Grill', 'ACTIVE').action,
    ).toBe(actions.unblockedPartner('Eko Grill'));
  });
});

describe('actors', () => {
  it('a staff member: their name, picture, partner; club staff are of Reward Club', () => {
    expect(
      actorOf({ id: 1, firstName: 'Ada', lastName: 'Obi', userType: 'ADMIN', organizationName: 'Eko Grill' }),
    ).toEqual({
      id: 1,
      type: 'ADMIN',
      name: 'Ada Obi',
      imageUrl: null,
      organization: 'Reward Club',
      partnerId: null,
    });
    expect(
      actorOf({
        id: 2,
        firstName: 'Segun',
        lastName: '',
        userType: 'PARTNER',
        imageUrl: '/api/v1/files/abc',
        organizationName: 'Eko Grill',
        partnerId: 3,
      }),
    ).toEqual({
      id: 2,
      type: 'PARTNER',
      name: 'Segun',
      imageUrl: '/api/v1/files/abc',
      organization: 'Eko Grill',
      partnerId: 3,
    });
    expect(actorOf({ id: 3, firstName: 'No', lastName: 'Org', userType: 'PARTNER' }).organization).toBeNull();
  });

  const person: AuthUser = {
    id: 9,
    email: 'bisi@eko.test',
    firstName: 'Bisi',
    lastName: 'Ade',
    imageUrl: null,
    userType: 'PARTNER',
    partnerId: 3,
    organizationName: 'Eko Grill',
    role: null,
    superAdmin: false,
    permissions: [],
    sessionId: 's',
  };

  it("a partner API key is 'API key <name>' of its partner, with no actor id (decision 028)", () => {
    expect(
      actorOfAuthUser({ ...person, id: -4, apiKey: { id: 4, name: 'Front till', kind: 'partner' } }),
    ).toEqual({
      id: null,
      type: 'PARTNER',
      name: 'API key Front till',
      imageUrl: null,
      organization: 'Eko Grill',
      partnerId: 3,
    });
    expect(
      actorOfAuthUser({
        ...person,
        organizationName: null,
        apiKey: { id: 4, name: 'Front till', kind: 'partner' },
      }).organization,
    ).toBeNull();
  });

  it("a club key is 'API key <name>' of Reward Club; a person is themselves", () => {
    expect(
      actorOfAuthUser({
        ...person,
        userType: 'ADMIN',
        partnerId: null,
        organizationName: null,
        apiKey: { id: 5, name: 'Nightly sync', kind: 'club' },
      }),
    ).toEqual({ id: null, type: 'ADMIN', name: 'API key Nightly sync', organization: 'Reward Club' });
    expect(actorOfAuthUser(person)).toEqual({
      id: 9,
      type: 'PARTNER',
      name: 'Bisi Ade',
      imageUrl: null,
      organization: 'Eko Grill',
      partnerId: 3,
    });
  });
});

describe('payloads and addresses', () => {
  it('secrets go whatever the case of their name; dates, nulls and plain values stay', () => {
    const at = new Date('2026-03-02T09:00:00.000Z');
    expect(
      scrubPayload({
        at,
        none: null,
        count: 3,
        name: 'x',
        tags: ['a', 'b'],
        SECRET: 's',
        webhookSecret: 'whsec_x',
        apiToken: 't',
        OTP: '1',
        codeHash: 'h',
        passphrase: 'p',
      }),
    ).toEqual({ at, none: null, count: 3, name: 'x', tags: ['a', 'b'] });
    expect(scrubPayload('text')).toBe('text');
    expect(scrubPayload(null)).toBeNull();
    expect(scrubPayload([{ secret: 1, ok: 2 }])).toEqual([{ ok: 2 }]);
  });

  it('loopback, private, CGNAT and link-local ranges are the local network; public ones are not', () => {
    for (const ip of [
      '0.1.2.3',
      '10.9.9.9',
      '100.127.0.1',
      '127.8.8.8',
      '169.254.1.1',
      '172.20.0.1',
      '192.168.0.1',
      '::',
      '::1',
      'fc00::1',
      'fdff::1',
      'fe80::1',
      'febf::1',
    ])
      expect(isLocalIp(ip), ip).toBe(true);
    for (const ip of [
      '1.0.0.1',
      '11.0.0.1',
      '100.63.0.1',
      '100.128.0.1',
      '128.0.0.1',
      '169.255.0.1',
      '172.15.0.1',
      '192.169.0.1',
      '::2',
      'fe00::1',
      'fec0::1',
      '2001:4860:4860::8888',
    ])
      expect(isLocalIp(ip), ip).toBe(false);
  });

  it('a place is "City, Country", or the country alone, from the offline database', () => {
    expect(ipLocation('105.112.30.193')).toBe('Lagos, Nigeria');
    expect(ipLocation('41.58.1.1')).toBe('Nigeria');
    expect(ipLocation('::ffff:105.112.30.193')).toBe('Lagos, Nigeria');
    // An address the database knows no country of.
    expect(ipLocation('1.1.1.1')).toBe('Unknown');
    // One it does not know at all (a documentation address, not a local range).
    expect(ipLocation('198.51.100.7')).toBe('Unknown');
    expect(ipLocation('')).toBe('Unknown');
  });

  it('an address in brackets without a closing one, or a zone at the start, is no address', () => {
    expect(normalizeIp('[::1')).toBeNull();
    expect(normalizeIp('1::1]')).toBeNull();
    expect(normalizeIp('%eth0')).toBeNull();
    expect(normalizeIp('[::1]:8080')).toBe('::1');
    expect(normalizeIp('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(normalizeIp('::ffff:10.0.0.1x')).toBeNull();
    // An IPv4-mapped address with numbers of any length is read as its IPv4; another IPv6 stays itself.
    expect(normalizeIp('::ffff:192.168.10.20')).toBe('192.168.10.20');
    expect(normalizeIp('::ffff:100.64.100.200')).toBe('100.64.100.200');
    expect(normalizeIp('1::ffff:1.2.3.4')).toBe('1::ffff:1.2.3.4');
  });
});

describe('recording', () => {
  const t = setupTestServer();
  let partnerId: number;
  let endpointId: number;
  const at = new Date('2026-03-02T09:00:00.000Z');

  beforeAll(async () => {
    partnerId = (await createPartner(t.db, { organizationName: 'Eko Grill' })).id;
    const [endpoint] = await t.db
      .insert(webhookEndpoints)
      .values({
        url: 'https://till.example.com/in',
        events: ['visit.recorded'],
        partnerId,
        secret: 'whsec_test',
      })
      .returning();
    endpointId = endpoint!.id;
  });

  const rowsOf = (entity: string) =>
    t.db.select().from(events).where(eq(events.entity, entity)).orderBy(events.id);
  const deliveries = () =>
    t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(webhookDeliveries.id);

  it('one event: its actor, sentence, entity id as text, scrubbed payload, address, place, agent and partner', async () => {
    await recordEvent(t.db, {
      actor: {
        id: null,
        type: 'PARTNER',
        name: 'API key Front till',
        imageUrl: '/api/v1/files/till',
        organization: 'Eko Grill',
        partnerId,
      },
      action: 'Recorded a visit for Kemi Obi at Eko Grill',
      entity: 'visit-one',
      entityId: 42,
      payload: { total: 2500, otp: '123456' },
      meta: { ipAddress: '10.0.0.5', userAgent: 'till/1.0' },
      at,
      webhook: { type: 'visit.recorded', partnerId, data: { visitId: 42 } },
    });
    const [row] = await rowsOf('visit-one');
    expect(row).toMatchObject({
      at,
      actorId: null,
      actorType: 'PARTNER',
      actorName: 'API key Front till',
      actorImageUrl: '/api/v1/files/till',
      actorOrganization: 'Eko Grill',
      action: 'Recorded a visit for Kemi Obi at Eko Grill',
      entityId: '42',
      payload: { total: 2500 },
      ipAddress: '10.0.0.5',
      ipLocation: 'Local network',
      userAgent: 'till/1.0',
      partnerId,
    });
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({
      eventType: 'visit.recorded',
      payload: { type: 'visit.recorded', timestamp: at.toISOString(), data: { visitId: 42 } },
      nextAttemptAt: at,
    });
    expect(delivery!.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('without an address, payload, entity id or webhook: empty fields, nothing queued', async () => {
    await t.db.delete(webhookDeliveries);
    await recordEvent(t.db, {
      actor: { id: null, type: 'ADMIN', name: 'Nightly job' },
      action: 'Signed in',
      entity: 'bare',
      at,
    });
    const [row] = await rowsOf('bare');
    expect(row).toMatchObject({
      actorOrganization: null,
      actorImageUrl: null,
      entityId: null,
      payload: {},
      ipAddress: null,
      ipLocation: null,
      userAgent: null,
      partnerId: null,
    });
    expect(await deliveries()).toEqual([]);
  });

  it('many events: the same rows in their order, a message of its own for each that has a webhook, to whoever hears it', async () => {
    await t.db.delete(webhookDeliveries);
    const otherPartner = (await createPartner(t.db, { organizationName: 'Jollof Republic' })).id;
    const [club] = await t.db
      .insert(webhookEndpoints)
      .values({ url: 'https://club.example.com/in', events: ['visit.recorded'], secret: 'whsec_club' })
      .returning();
    const event = (n: number, webhook?: { partnerId: number | null; partnerOnly?: true }): NewEvent => ({
      actor: { id: null, type: 'PARTNER', name: 'Campaign', organization: 'Eko Grill', partnerId },
      action: `Issued gift card GC-${n} to Kemi Obi at Eko Grill`,
      entity: 'batch',
      entityId: n,
      payload: { n },
      at: new Date(at.getTime() + n * 1000),
      ...(webhook ? { webhook: { type: 'visit.recorded' as const, ...webhook, data: { visitId: n } } } : {}),
    });
    await recordEvents(t.db, [
      event(1, { partnerId }),
      event(2),
      // The partner's own endpoints only, not the club-wide ones.
      event(3, { partnerId, partnerOnly: true }),
      event(4, { partnerId: otherPartner }),
      // A club-wide event: club-wide endpoints only.
      event(5, { partnerId: null }),
    ]);
    // A type no endpoint is subscribed to: nobody hears it, though its partner and the club have endpoints.
    await recordEvents(t.db, [
      {
        ...event(7),
        webhook: { type: 'reward.issued', partnerId, data: { rewardId: 7 } },
      },
      event(8, { partnerId }),
    ]);
    expect((await rowsOf('batch')).map((r) => [r.entityId, r.payload, r.partnerId])).toEqual([
      ['1', { n: 1 }, partnerId],
      ['2', { n: 2 }, partnerId],
      ['3', { n: 3 }, partnerId],
      ['4', { n: 4 }, partnerId],
      ['5', { n: 5 }, partnerId],
      ['7', { n: 7 }, partnerId],
      ['8', { n: 8 }, partnerId],
    ]);
    const heard = async (endpoint: number) =>
      (
        await t.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, endpoint))
          .orderBy(webhookDeliveries.id)
      ).map((d) => d.payload);
    const message = (n: number) => ({
      type: 'visit.recorded',
      timestamp: new Date(at.getTime() + n * 1000).toISOString(),
      data: { visitId: n },
    });
    expect(await heard(endpointId)).toEqual([message(1), message(3), message(8)]);
    expect(await heard(club!.id)).toEqual([message(1), message(4), message(5), message(8)]);
    // One message id per event, the same for each endpoint that hears it.
    const ids = (await t.db.select().from(webhookDeliveries)).map((d) => [
      (d.payload as { data: { visitId: number } }).data.visitId,
      d.messageId,
    ]);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(5);
    expect(new Set(ids.filter(([n]) => n === 1).map(([, id]) => id)).size).toBe(1);
    // None of them with a webhook: no message.
    await t.db.delete(webhookDeliveries);
    await recordEvents(t.db, [event(6)]);
    expect(await t.db.select().from(webhookDeliveries)).toEqual([]);
    // Messages nobody is subscribed to: none either.
    await recordEvents(t.db, [
      { ...event(9), webhook: { type: 'reward.issued', partnerId, data: { rewardId: 9 } } },
    ]);
    expect(await t.db.select().from(webhookDeliveries)).toEqual([]);
    // Nothing to record: nothing written.
    const before = await t.db.$count(events);
    await recordEvents(t.db, []);
    expect(await t.db.$count(events)).toBe(before);
  });

  it('more events than one statement holds (500): each written once, each message queued once', async () => {
    await t.db.delete(webhookDeliveries);
    const many: NewEvent[] = Array.from({ length: 501 }, (_, i) => ({
      actor: { id: null, type: 'PARTNER', name: 'Campaign', partnerId },
      action: `Issued gift card GC-${i} to Kemi Obi at Eko Grill`,
      entity: 'bulk',
      entityId: i,
      at,
      webhook: { type: 'visit.recorded', partnerId, partnerOnly: true, data: { visitId: i } },
    }));
    await recordEvents(t.db, many);
    const rows = await rowsOf('bulk');
    expect(rows.map((r) => Number(r.entityId))).toEqual(many.map((_, i) => i));
    expect(await t.db.$count(webhookDeliveries)).toBe(501);
  });
});
