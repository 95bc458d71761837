import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createCustomer, createPartner, linkCustomer, setupTestServer } from '../../tests/setup/server';
import { customerLinks, partners, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { enqueueLinkedPartnersStatus } from './status-webhooks';

/*
 * The partner side of a customer's new status (docs/decisions/065, 053): each live partner the
 * customer is linked to (a CONFIRMED link) gets, on its own endpoints only, a message with the ids
 * and the status, no personal data; a partner only asked (a PENDING link), a deleted partner or an
 * unlinked one hears nothing.
 */

const t = setupTestServer();
const at = new Date('2026-03-02T09:00:00.000Z');

const endpointFor = (partnerId: number) =>
  t.db
    .insert(webhookEndpoints)
    .values({
      url: `https://hooks.example.com/p${partnerId}`,
      events: ['customer.blocked', 'customer.unblocked'],
      partnerId,
      secret: 'whsec_eA==',
    })
    .returning({ id: webhookEndpoints.id })
    .then((r) => r[0]!.id);

const heard = async (endpointId: number) =>
  (await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId))).map(
    (d) => [d.eventType, d.payload] as const,
  );

describe('enqueueLinkedPartnersStatus', () => {
  it('blocked, then unblocked: each linked live partner hears the ids and the status; nobody else', async () => {
    const linkedA = await createPartner(t.db);
    const linkedB = await createPartner(t.db);
    const asked = await createPartner(t.db);
    const gone = await createPartner(t.db);
    const stranger = await createPartner(t.db);
    const c = await createCustomer(t.db, { firstName: 'Ada', email: 'ada.status@mail.test' });
    await linkCustomer(t.db, linkedA.id, c.id);
    await linkCustomer(t.db, linkedB.id, c.id);
    await linkCustomer(t.db, gone.id, c.id);
    await t.db.update(partners).set({ deletedAt: at }).where(eq(partners.id, gone.id));
    await t.db
      .insert(customerLinks)
      .values({ partnerId: asked.id, customerId: c.id, requested: `member:${c.id}`, state: 'PENDING' });
    const ends = {
      a: await endpointFor(linkedA.id),
      b: await endpointFor(linkedB.id),
      asked: await endpointFor(asked.id),
      gone: await endpointFor(gone.id),
      stranger: await endpointFor(stranger.id),
    };
    const club = (
      await t.db
        .insert(webhookEndpoints)
        .values({
          url: 'https://hooks.example.com/club',
          events: ['customer.blocked'],
          partnerId: null,
          secret: 'whsec_eA==',
        })
        .returning({ id: webhookEndpoints.id })
    )[0]!.id;

    await t.db.transaction((tx) => enqueueLinkedPartnersStatus(tx, c.id, 'BLOCKED', at));
    const blocked = (partnerId: number) => [
      'customer.blocked',
      {
        type: 'customer.blocked',
        timestamp: at.toISOString(),
        data: { partnerId, customerId: c.id, accountStatus: 'BLOCKED', changedAt: at.toISOString() },
      },
    ];
    expect(await heard(ends.a)).toEqual([blocked(linkedA.id)]);
    expect(await heard(ends.b)).toEqual([blocked(linkedB.id)]);
    for (const none of [ends.asked, ends.gone, ends.stranger, club]) expect(await heard(none)).toEqual([]);

    const later = new Date(at.getTime() + 60_000);
    await t.db.transaction((tx) => enqueueLinkedPartnersStatus(tx, c.id, 'ACTIVE', later));
    const aHeard = await heard(ends.a);
    expect(aHeard).toHaveLength(2);
    expect(aHeard[1]).toEqual([
      'customer.unblocked',
      {
        type: 'customer.unblocked',
        timestamp: later.toISOString(),
        data: {
          partnerId: linkedA.id,
          customerId: c.id,
          accountStatus: 'ACTIVE',
          changedAt: later.toISOString(),
        },
      },
    ]);
    // No personal data in any of them.
    expect(JSON.stringify(aHeard)).not.toContain('ada.status@mail.test');
    expect(await heard(club)).toEqual([]);
  });
});
