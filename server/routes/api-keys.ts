import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  type ApiKey,
  type ApiKeyPermission,
  MAX_API_KEYS_PER_PARTNER,
  apiKeyMessages as msg,
} from '../../contract/api-keys';
import type { DbOrTx } from '../db/client';
import { partnerApiKeys, partners } from '../db/schema';
import { generateApiKey } from '../domain/api-keys';
import { actions } from '../domain/events';
import { PARTNER_NOT_FOUND, staffUserId } from '../domain/scope';
import { apiKeyRevokedMessage } from '../domain/status-webhooks';
import { ApiError, fieldError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { routeSet } from '../http/route';

const keyColumns = {
  id: partnerApiKeys.id,
  partnerId: partnerApiKeys.partnerId,
  name: partnerApiKeys.name,
  prefix: partnerApiKeys.prefix,
  permissions: partnerApiKeys.permissions,
  createdAt: partnerApiKeys.createdAt,
  lastUsedAt: partnerApiKeys.lastUsedAt,
};

type KeyRow = {
  id: number;
  partnerId: number;
  name: string;
  prefix: string;
  permissions: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
};

const toApiKey = (r: KeyRow): ApiKey => ({
  id: r.id,
  partnerId: r.partnerId,
  name: r.name,
  prefix: `rck_${r.prefix}`,
  permissions: r.permissions as ApiKeyPermission[],
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
});

/** The partner (not deleted), locked against a concurrent delete while a key is made or revoked. */
async function livePartner(tx: DbOrTx, partnerId: number, lock: boolean) {
  const query = tx
    .select({ id: partners.id, name: partners.organizationName })
    .from(partners)
    .where(and(eq(partners.id, partnerId), isNull(partners.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new ApiError(404, PARTNER_NOT_FOUND);
  return row;
}

/**
 * /admin/partners/{partnerId}/api-keys (docs/decisions/028-partner-api-keys.md): integrations.manage,
 * scope partner (partner staff manage only their own partner's keys: another partner is a 404 from
 * the guard). A key is answered once; only its prefix and the SHA-256 of its secret are kept.
 */
export function apiKeyRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;

  return routeSet(guards)
    .on('GET /admin/partners/{partnerId}/api-keys', async (c) => {
      const { partnerId } = c.req.valid('param');
      await livePartner(db, partnerId, false);
      const rows = await db
        .select(keyColumns)
        .from(partnerApiKeys)
        .where(and(eq(partnerApiKeys.partnerId, partnerId), isNull(partnerApiKeys.revokedAt)))
        .orderBy(asc(partnerApiKeys.createdAt), asc(partnerApiKeys.id));
      return ok(c, rows.map(toApiKey));
    })
    .on('POST /admin/partners/{partnerId}/api-keys', async (c) => {
      const user = c.get('user');
      const { partnerId } = c.req.valid('param');
      const body = c.req.valid('json');
      const permissions = [...new Set(body.permissions)];
      // No escalation: a key holds nothing its maker does not hold.
      if (!permissions.every((p) => user.permissions.includes(p)))
        throw fieldError('permissions', msg.permissionNotHeld, 403);
      const { now, record } = callerChange(c, ctx);
      const generated = generateApiKey();
      const created = await db.transaction(async (tx) => {
        const partner = await livePartner(tx, partnerId, true);
        const [count] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(partnerApiKeys)
          .where(and(eq(partnerApiKeys.partnerId, partnerId), isNull(partnerApiKeys.revokedAt)));
        if (Number(count?.n ?? 0) >= MAX_API_KEYS_PER_PARTNER) throw new ApiError(409, msg.tooMany);
        const [row] = await tx
          .insert(partnerApiKeys)
          .values({
            partnerId,
            name: body.name,
            prefix: generated.prefix,
            secretHash: generated.secretHash,
            permissions,
            createdBy: staffUserId(user),
            createdAt: now,
          })
          .returning(keyColumns);
        await record(tx, {
          action: actions.createdApiKey(body.name, partner.name),
          entity: 'partner',
          entityId: partnerId,
          payload: { apiKeyId: row!.id, name: body.name, prefix: `rck_${generated.prefix}`, permissions },
        });
        return row!;
      });
      return ok(c, { ...toApiKey(created), key: generated.key }, msg.created, 201);
    })
    .on('DELETE /admin/partners/{partnerId}/api-keys/{keyId}', async (c) => {
      const { partnerId, keyId } = c.req.valid('param');
      const { now, commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const partner = await livePartner(tx, partnerId, false);
        const [row] = await tx
          .update(partnerApiKeys)
          .set({ revokedAt: now })
          .where(
            and(
              eq(partnerApiKeys.id, keyId),
              eq(partnerApiKeys.partnerId, partnerId),
              isNull(partnerApiKeys.revokedAt),
            ),
          )
          .returning({ name: partnerApiKeys.name, prefix: partnerApiKeys.prefix });
        if (!row) throw new ApiError(404, msg.notFound);
        return {
          action: actions.revokedApiKey(row.name, partner.name),
          entity: 'partner',
          entityId: partnerId,
          payload: { apiKeyId: keyId, name: row.name, prefix: `rck_${row.prefix}` },
          webhook: apiKeyRevokedMessage(
            { id: keyId, partnerId, name: row.name, prefix: `rck_${row.prefix}` },
            now,
          ),
        };
      });
      return ok(c, null, msg.revoked);
    }).router;
}
