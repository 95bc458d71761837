import { and, or, sql } from 'drizzle-orm';
import { visitReviewMessages as reviewMsg } from '../../contract/visit-reviews';
import { visitServerMessages as msg } from '../../contract/visits';
import { customers, visitItems, visits } from '../db/schema';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { runIdempotent, success } from '../domain/idempotency';
import { storeFile } from '../domain/images';
import { transactingCustomer, transactingPartner } from '../domain/partners';
import { assertPartnerScope } from '../domain/scope';
import { sha256Hex } from '../domain/tokens';
import { fullName } from '../domain/users';
import { reviewFlags, reviewRulesOf } from '../domain/visit-review';
import { findVisits } from '../domain/visits';
import { fieldError } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { imageField } from '../http/images';
import { routeSet } from '../http/route';
import { findCustomers, lookupPartner, nameOrEmailContains } from './customer-lookup';
import { customersInScope } from './customers';

/** numeric(14,2): at most 999,999,999,999.99 naira. */
const MAX_TOTAL_KOBO = 99_999_999_999_999n;
/** A visit may be recorded a little ahead of the server clock (clock skew), never later. */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

/** POST /user/visits: a partner records a customer's visit; GET /partners/visits/customers finds the customer. */
export function recordVisitRoutes(ctx: RouteContext) {
  const { db, clock, config, guards } = ctx;
  return routeSet(guards)
    .on('POST /user/visits', async (c) => {
      const actor = c.get('user');
      const body = c.req.valid('json');
      const key = idempotencyKeyOf(c);
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      assertPartnerScope(actor, body.partnerId);
      const visitDate = new Date(body.visitDate);
      if (visitDate.getTime() > now.getTime() + FUTURE_TOLERANCE_MS)
        throw fieldError('visitDate', msg.futureDate);
      // Exact: kobo as big integers (quantity x price can reach 10^12 naira per item).
      const totalKobo = body.items.reduce(
        (sum, i) => sum + BigInt(i.quantity) * BigInt(Math.round(i.price * 100)),
        0n,
      );
      if (totalKobo > MAX_TOTAL_KOBO) throw fieldError('items', msg.totalTooLarge);
      const totalAmount = Number(totalKobo) / 100;
      const receipt =
        body.receiptImage !== undefined ? imageField('receiptImage', body.receiptImage) : undefined;

      // Idempotency-Key: a till that retries (a lost answer) gets the first visit back, not a second one.
      const outcome = await runIdempotent(
        db,
        { key, userId: actor.id, route: 'record-visit', body, now },
        async (tx) => {
          // Share locks: a concurrent delete or block of either waits for this visit.
          const partner = await transactingPartner(tx, body.partnerId, 'partnerId');
          const rules = await reviewRulesOf(tx, partner.id);
          // A limit of visits per day counts this customer's visits: two of them recorded at once
          // are counted one after the other (update lock), else a share lock is enough.
          const customer = await transactingCustomer(
            tx,
            body.customerId,
            'customerId',
            rules.maxVisitsPerDay === null ? 'share' : 'update',
          );

          const receiptHash = receipt ? sha256Hex(receipt.bytes) : null;
          // Visit review (decision 075): the partner's rules, and a receipt sent before, flag it.
          const flags = await reviewFlags(tx, rules, {
            partnerId: partner.id,
            customerId: customer.id,
            visitDate,
            totalKobo,
            receiptHash,
          });
          const reviewState = flags.length > 0 ? 'waiting' : 'approved';
          const receiptImage = receipt ? await storeFile(tx, receipt.bytes, receipt.mime, now) : null;
          const [created] = await tx
            .insert(visits)
            .values({
              partnerId: partner.id,
              customerId: customer.id,
              attendantName: body.attendantName,
              visitDate,
              totalAmount: Number(totalKobo) / 100,
              receiptImage,
              reviewState,
              reviewFlags: flags,
              createdAt: now,
            })
            .returning({ id: visits.id });
          await tx.insert(visitItems).values(
            body.items.map((i) => ({
              visitId: created!.id,
              name: i.name,
              quantity: i.quantity,
              price: i.price,
            })),
          );
          await recordEvent(tx, {
            actor: actorOfAuthUser(actor),
            action: actions.recordedVisit(fullName(customer), partner.organizationName),
            entity: 'visit',
            entityId: created!.id,
            payload: {
              partnerId: partner.id,
              customerId: customer.id,
              totalAmount,
              items: body.items.length,
              reviewState,
              reviewFlags: flags,
            },
            meta,
            at: now,
            webhook: {
              type: 'visit.recorded',
              partnerId: partner.id,
              data: {
                visitId: created!.id,
                partnerId: partner.id,
                customerId: customer.id,
                attendantName: body.attendantName,
                visitDate: visitDate.toISOString(),
                totalAmount,
                items: body.items.map((i) => ({ name: i.name, quantity: i.quantity, price: i.price })),
                recordedAt: now.toISOString(),
                reviewState,
                reviewFlags: flags,
              },
            },
          });
          const [visit] = await findVisits(tx, sql`${visits.id} = ${created!.id}`);
          return success(visit!, flags.length > 0 ? reviewMsg.recordedWaiting : msg.recorded, 201);
        },
      );
      return respond(c, outcome);
    })
    .on('GET /partners/visits/customers', async (c) => {
      const q = c.req.valid('query');
      const scope = await lookupPartner(db, c.get('user'), q.partnerId);
      const text = q.search ?? '';
      // The customers linked to the partner (decision 053), by part of a name or address. A customer
      // new to the partner is linked first (POST /partners/customer-links): partner staff and keys
      // find nobody else. Club staff, not bound by links, also find anyone by the whole address.
      const own = and(customersInScope(scope), text === '' ? undefined : nameOrEmailContains(text));
      if (text === '' || c.get('user').partnerId !== null) return ok(c, await findCustomers(db, own));
      return ok(c, await findCustomers(db, or(own, sql`lower(${customers.email}) = lower(${text})`)));
    }).router;
}
