import { and, eq, getTableColumns, isNull, type SQL, sql } from 'drizzle-orm';
import { customerPrivacyMessages } from '../../contract/customer-privacy';
import {
  type ClientInternetInfo,
  type Customer,
  customerList as customerListDefinition,
  customerMessages,
  customerServerMessages as msg,
} from '../../contract/customers';
import type { DbOrTx } from '../db/client';
import { customers } from '../db/schema';
import { changedFields } from '../domain/changes';
import { liveCustomerCount } from '../domain/counts';
import { linkedTo } from '../domain/customer-links';
import { type CustomerRow, customerRecordMessage, toCustomer } from '../domain/customer-sync';
import { accountStatusEvent, actions } from '../domain/events';
import { runIdempotent, success } from '../domain/idempotency';
import { maskEmail, maskPhone } from '../domain/otp';
import { enqueueLinkedPartnersStatus } from '../domain/status-webhooks';
import { fullName } from '../domain/users';
import { ApiError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { customerCsvColumns } from '../http/csv-columns';
import { ok } from '../http/errors';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { caseless, tableList } from '../http/list';
import { listRoutes, tableSource } from '../http/list-source';
import { routeSet } from '../http/route';
import { conflict, expectedVersionOf, isStale } from '../http/versions';

/** Kept equal to the expression of the trigram index customers_search_trgm_idx (schema.ts) and of the statistics customers_search_stats (migration 0023). */
const customerSearch = sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${customers.email})`;

type CustomerSortKey = 'firstName' | 'lastName' | 'email' | 'createdAt';

const customerList = tableList<CustomerSortKey>(customers, customerListDefinition, customerSearch, {
  ...caseless(customers, ['firstName', 'lastName', 'email']),
  createdAt: customers.createdAt,
});

/**
 * A customer as partner staff and partner keys see them (issue 28, decision 053): the name, the
 * email and phone masked, no address and no image. Club staff (scope null) see the record.
 */
const customerFor =
  (scope: number | null) =>
  (r: CustomerRow): Customer => {
    const full = toCustomer(r);
    if (scope === null) return full;
    return { ...full, email: maskEmail(r.email), phone: maskPhone(r.phone), address: null, imageUrl: null };
  };

async function findLiveCustomer(
  db: DbOrTx,
  id: number,
  lock = false,
  scope: number | null = null,
): Promise<CustomerRow | undefined> {
  const query = db
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), isNull(customers.deletedAt), customersInScope(scope)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

const notFound = () => new ApiError(404, msg.notFound);

/**
 * The customers a caller sees (decisions 023 and 053): club staff every customer; partner staff and
 * keys those linked to their partner (a confirmed consent link), never an erased one. Every read of
 * this module filters by it.
 */
export const customersInScope = (partnerId: number | null): SQL | undefined =>
  partnerId === null ? undefined : and(linkedTo(partnerId, customers.id), isNull(customers.erasedAt));

async function loadCustomer(
  db: DbOrTx,
  id: number,
  lock = false,
  scope: number | null = null,
): Promise<CustomerRow> {
  const row = await findLiveCustomer(db, id, lock, scope);
  if (!row) throw notFound();
  return row;
}

/**
 * An erased customer's tombstone is not edited, blocked or unblocked (decision 054): 409
 * customer_erased. Nothing of the person may come back by hand; the counts by status stay.
 */
function unlessErased(row: CustomerRow): CustomerRow {
  if (row.erasedAt) throw new ApiError(409, customerPrivacyMessages.alreadyErased, [], {}, 'customer_erased');
  return row;
}

/** /admin/user/customers: the club's customers (clients). Delete is soft; history is kept. */
export function customerRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  /**
   * Live customers of one status inside the caller's scope, for the list and its export. The
   * counter's total serves the club's unfiltered list only; a partner's list is counted.
   */
  const list = listRoutes(ctx, 'GET /admin/user/customers', {
    source: (q, c) =>
      tableSource(db, customers, getTableColumns(customers), {
        spec: customerList,
        filters: [
          isNull(customers.deletedAt),
          eq(customers.accountStatus, q.status),
          customersInScope(c.get('partnerScope')),
        ],
        map: (rows) => rows.map(customerFor(c.get('partnerScope'))),
        total: c.get('partnerScope') === null ? () => liveCustomerCount(db, q.status) : undefined,
      }),
    csv: {
      name: (q) => (q.status === 'BLOCKED' ? 'customers-blocked' : 'customers'),
      columns: customerCsvColumns,
    },
  });

  return routeSet(guards)
    .on('GET /admin/user/customers', list.page)
    .on('GET /admin/user/customers/export', list.export)
    .on('GET /admin/user/customers/{customerId}', async (c) =>
      ok(
        c,
        customerFor(c.get('partnerScope'))(
          await loadCustomer(db, c.req.valid('param').customerId, false, c.get('partnerScope')),
        ),
      ),
    )
    .on('PATCH /admin/user/customers', async (c) => {
      const body = c.req.valid('json');
      const key = idempotencyKeyOf(c);
      const expected = expectedVersionOf(c);
      const { user: actor, now, record } = callerChange(c, ctx);
      unlessErased(await loadCustomer(db, body.customerId));
      const outcome = await runIdempotent(
        db,
        { key, userId: actor.id, route: 'customer-update', body, now },
        async (tx) => {
          const before = unlessErased(await loadCustomer(tx, body.customerId, true));
          if (isStale(expected, before.updatedAt)) return conflict(toCustomer(before));
          const { changes, changed } = changedFields(
            before,
            // An empty address clears it (issue 22).
            {
              firstName: body.firstName,
              lastName: body.lastName,
              address: body.address === '' ? null : body.address,
            },
            { firstName: 'first name', lastName: 'last name', address: 'address' },
          );
          if (changed.length > 0) {
            await tx
              .update(customers)
              .set({ ...changes, updatedAt: now })
              .where(eq(customers.id, before.id));
            await record(tx, {
              action: actions.updatedClient(fullName({ ...before, ...changes }), changed),
              entity: 'customer',
              entityId: before.id,
              payload: { fields: Object.keys(changes) },
            });
          }
          return success(toCustomer(await loadCustomer(tx, before.id)), customerMessages.updated);
        },
      );
      return respond(c, outcome);
    })
    .on('PATCH /admin/user/customers/status', async (c) => {
      const { customerId, accountStatus } = c.req.valid('json');
      const { now, commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const before = unlessErased(await loadCustomer(tx, customerId, true));
        if (before.accountStatus === accountStatus) return undefined;
        const [after] = await tx
          .update(customers)
          .set({ accountStatus, updatedAt: now })
          .where(eq(customers.id, customerId))
          .returning();
        // Each linked partner hears it (ids only); the club-wide endpoints get the record.
        await enqueueLinkedPartnersStatus(tx, customerId, accountStatus, now);
        return {
          ...accountStatusEvent('customer', before, fullName(before), accountStatus),
          webhook: customerRecordMessage(
            accountStatus === 'BLOCKED' ? 'customer.blocked' : 'customer.unblocked',
            after!,
            ['status'],
            now,
          ),
        };
      });
      return ok(
        c,
        toCustomer(await loadCustomer(db, customerId)),
        accountStatus === 'BLOCKED' ? msg.blocked : msg.unblocked,
      );
    })
    .on('DELETE /admin/user/customers/{customerId}', async (c) => {
      const { customerId } = c.req.valid('param');
      const { now, commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const customer = await loadCustomer(tx, customerId, true);
        // Soft delete: hidden from lists and figures; visits, rewards and the event log keep them.
        await tx
          .update(customers)
          .set({ deletedAt: now, updatedAt: now })
          .where(eq(customers.id, customerId));
        return {
          action: actions.deletedClient(fullName(customer)),
          entity: 'customer',
          entityId: customerId,
          payload: { email: customer.email },
        };
      });
      return ok(c, null, msg.deleted);
    }).router;
}

/** /user/internet/client_info?client_id=: the customer's fiber account. */
export function clientInfoRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  return routeSet(guards).on('GET /user/internet/client_info', async (c) => {
    const row = await loadCustomer(db, c.req.valid('query').client_id);
    const info: ClientInternetInfo = {
      customerId: row.id,
      accountNumber: row.internetAccountNumber,
      plan: row.fiberPlan,
      speedMbps: row.fiberSpeedMbps,
      monthlyFee: row.fiberMonthlyFee === null ? null : Number(row.fiberMonthlyFee),
      status: row.fiberStatus,
      renewalDate: row.fiberRenewalDate?.toISOString() ?? null,
    };
    return ok(c, info);
  }).router;
}
