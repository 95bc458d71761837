import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import {
  type ClubKey,
  type ClubKeyScope,
  clubKeyMessages,
  MAX_CLUB_KEYS,
  customerSyncMessages as msg,
} from '../../contract/customer-sync';
import { customerServerMessages } from '../../contract/customers';
import { clubApiKeys, customers } from '../db/schema';
import { generateApiKey } from '../domain/api-keys';
import {
  applyCustomerRecords,
  lockCustomerSync,
  type SyncInput,
  statusChanged,
  syncEvent,
  toSyncedCustomer,
} from '../domain/customer-sync';
import { actions } from '../domain/events';
import { staffUserId } from '../domain/scope';
import { apiKeyRevokedMessage, enqueueLinkedPartnersStatus } from '../domain/status-webhooks';
import { fullName } from '../domain/users';
import { ApiError, fieldError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { routeSet } from '../http/route';
import type { AppEnv } from '../types';

const SUPER_ADMIN_ONLY = 'Only a Super Admin manages club integration keys';

const keyColumns = {
  id: clubApiKeys.id,
  name: clubApiKeys.name,
  prefix: clubApiKeys.prefix,
  scopes: clubApiKeys.scopes,
  createdAt: clubApiKeys.createdAt,
  lastUsedAt: clubApiKeys.lastUsedAt,
  revokedAt: clubApiKeys.revokedAt,
};

const toClubKey = (r: {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ClubKey => ({
  id: r.id,
  name: r.name,
  prefix: `rcc_${r.prefix}`,
  scopes: r.scopes as ClubKeyScope[],
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  revokedAt: r.revokedAt?.toISOString() ?? null,
});

/** Club keys are the Super Admin's: integrations.manage lets a role reach the route, not the keys. */
function assertSuperAdmin(c: Context<AppEnv>) {
  const user = c.get('user');
  if (!user.superAdmin || user.apiKey) throw new ApiError(403, SUPER_ADMIN_ONLY);
}

/**
 * The subscriber sync (issue 27, docs/decisions/051): club integration keys, one customer by
 * external id (PUT, GET) and Add customer. Every write goes through `applyCustomerRecords`.
 */
export function customerSyncRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;

  /** Applies one record in its own transaction, with its event and webhook. */
  async function applyOne(c: Context<AppEnv>, input: SyncInput, mustBeNew = false) {
    const { now, record } = callerChange(c, ctx);
    return db.transaction(async (tx) => {
      const [outcome] = await applyCustomerRecords(tx, [input], now);
      // Add customer makes a new one: an external id someone holds is a 409 (rolled back).
      if (mustBeNew && outcome?.result !== 'created' && outcome?.result !== 'rejected')
        throw fieldError('externalId', msg.externalIdTaken, 409);
      if (!outcome || outcome.result === 'rejected') {
        const reason = outcome?.reason ?? msg.emailTaken;
        throw new ApiError(409, reason, [
          { fieldName: reason === msg.emailTaken ? 'email' : 'externalId', message: reason },
        ]);
      }
      const event = syncEvent(outcome, now);
      if (event) await record(tx, event);
      // A blocked or unblocked customer: each partner it is linked to hears it (ids only).
      if (statusChanged(outcome))
        await enqueueLinkedPartnersStatus(tx, outcome.customer.id, outcome.customer.accountStatus, now);
      return outcome;
    });
  }

  return routeSet(guards)
    .on('GET /admin/api-keys', async (c) => {
      assertSuperAdmin(c);
      // Active keys first, then the revoked ones (kept so the console shows who revoked what, when).
      const rows = await db
        .select(keyColumns)
        .from(clubApiKeys)
        .orderBy(sql`${clubApiKeys.revokedAt} is not null`, asc(clubApiKeys.createdAt), asc(clubApiKeys.id));
      return ok(c, rows.map(toClubKey));
    })
    .on('POST /admin/api-keys', async (c) => {
      assertSuperAdmin(c);
      const body = c.req.valid('json');
      const scopes = [...new Set(body.scopes)];
      const { user, now, record } = callerChange(c, ctx);
      const generated = generateApiKey('club');
      const created = await db.transaction(async (tx) => {
        // One creation at a time, so the cap holds under concurrent calls.
        await tx.execute(sql`select pg_advisory_xact_lock(72202)`);
        const [count] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(clubApiKeys)
          .where(isNull(clubApiKeys.revokedAt));
        if (Number(count?.n ?? 0) >= MAX_CLUB_KEYS) throw new ApiError(409, clubKeyMessages.tooMany);
        const [row] = await tx
          .insert(clubApiKeys)
          .values({
            name: body.name,
            prefix: generated.prefix,
            secretHash: generated.secretHash,
            scopes,
            createdBy: staffUserId(user),
            createdAt: now,
          })
          .returning(keyColumns);
        await record(tx, {
          action: actions.createdClubKey(body.name),
          entity: 'club_api_key',
          entityId: row!.id,
          payload: { name: body.name, prefix: `rcc_${generated.prefix}`, scopes },
        });
        return row!;
      });
      return ok(c, { ...toClubKey(created), key: generated.key }, clubKeyMessages.created, 201);
    })
    .on('DELETE /admin/api-keys/{id}', async (c) => {
      assertSuperAdmin(c);
      const { id } = c.req.valid('param');
      const { now, commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const [row] = await tx
          .update(clubApiKeys)
          .set({ revokedAt: now })
          .where(and(eq(clubApiKeys.id, id), isNull(clubApiKeys.revokedAt)))
          .returning({ name: clubApiKeys.name, prefix: clubApiKeys.prefix });
        if (!row) throw new ApiError(404, clubKeyMessages.notFound);
        return {
          action: actions.revokedClubKey(row.name),
          entity: 'club_api_key',
          entityId: id,
          payload: { name: row.name, prefix: `rcc_${row.prefix}` },
          // The club's own key: club-wide endpoints only.
          webhook: apiKeyRevokedMessage(
            { id, partnerId: null, name: row.name, prefix: `rcc_${row.prefix}` },
            now,
          ),
        };
      });
      return ok(c, null, clubKeyMessages.revoked);
    })
    .on('PUT /admin/customers/external/{externalId}', async (c) => {
      const { externalId } = c.req.valid('param');
      const outcome = await applyOne(c, { externalId, record: c.req.valid('json') });
      return ok(
        c,
        { result: outcome.result, customer: toSyncedCustomer(outcome.customer) },
        msg[outcome.result],
      );
    })
    .on('GET /admin/customers/external/{externalId}', async (c) => {
      const { externalId } = c.req.valid('param');
      const [row] = await db
        .select()
        .from(customers)
        .where(and(eq(customers.externalId, externalId), isNull(customers.deletedAt)))
        .limit(1);
      if (!row) throw new ApiError(404, customerServerMessages.notFound);
      return ok(c, toSyncedCustomer(row));
    })
    .on('POST /admin/user/customers/{customerId}/restore', async (c) => {
      const { customerId } = c.req.valid('param');
      const { now, commit } = callerChange(c, ctx);
      let answer:
        | { customerId: number; result: 'restored' | 'released'; externalId: string | null }
        | undefined;
      await commit(async (tx) => {
        // Under the sync's lock: no sync is deciding about this external id meanwhile.
        await lockCustomerSync(tx);
        const [row] = await tx.select().from(customers).where(eq(customers.id, customerId)).for('update');
        if (!row) throw new ApiError(404, customerServerMessages.notFound);
        if (row.erasedAt && row.externalId !== null) {
          await tx.update(customers).set({ externalId: null }).where(eq(customers.id, customerId));
          answer = { customerId, result: 'released', externalId: row.externalId };
          return {
            action: actions.releasedExternalId(row.externalId, `#${customerId}`),
            entity: 'customer',
            entityId: customerId,
            payload: { externalId: row.externalId },
          };
        }
        if (!row.erasedAt && row.deletedAt) {
          await tx
            .update(customers)
            .set({ deletedAt: null, updatedAt: now })
            .where(eq(customers.id, customerId));
          answer = { customerId, result: 'restored', externalId: row.externalId };
          return {
            action: actions.restoredClient(fullName(row)),
            entity: 'customer',
            entityId: customerId,
            payload: { externalId: row.externalId },
          };
        }
        throw new ApiError(409, msg.nothingToRestore);
      });
      return ok(c, answer!, answer!.result === 'released' ? msg.released : msg.restored);
    })
    .on('POST /admin/user/customers', async (c) => {
      const { externalId, ...record } = c.req.valid('json');
      const outcome = await applyOne(c, { externalId, record }, true);
      return ok(c, { result: outcome.result, customer: toSyncedCustomer(outcome.customer) }, msg.added, 201);
    }).router;
}
