import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  type ExtendedService,
  extendedServiceList as extendedServiceListDefinition,
  extendedServiceServerMessages as msg,
} from '../../contract/extended-services';
import type { DbOrTx } from '../db/client';
import { extendedServices, partnerExtendedServices } from '../db/schema';
import { actions } from '../domain/events';
import { runIdempotent, success } from '../domain/idempotency';
import { ApiError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { serviceCsvColumns } from '../http/csv-columns';
import { ok } from '../http/errors';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { caseless, tableList } from '../http/list';
import { listRoutes, tableSource } from '../http/list-source';
import { routeSet } from '../http/route';
import { conflict, expectedVersionOf, isStale } from '../http/versions';

/** Kept equal to the expression of the trigram index extended_services_search_trgm_idx (schema.ts). */
const serviceSearch = sql`(${extendedServices.title} || ' ' || ${extendedServices.description})`;

/** Live partners offering the service (spelled out: see roles.ts on unqualified names). */
const partnerCount = sql<number>`(select count(*) from partner_extended_services ps join partners p on p.id = ps.partner_id
  where ps.extended_service_id = "extended_services"."id" and p.deleted_at is null)::int`;

const serviceColumns = {
  id: extendedServices.id,
  title: extendedServices.title,
  description: extendedServices.description,
  createdAt: extendedServices.createdAt,
  updatedAt: extendedServices.updatedAt,
  partnerCount,
};

type ServiceRow = {
  id: number;
  title: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  partnerCount: number;
};

const toService = (r: ServiceRow): ExtendedService => ({
  id: r.id,
  title: r.title,
  description: r.description,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  partnerCount: Number(r.partnerCount),
});

const serviceList = tableList(extendedServices, extendedServiceListDefinition, serviceSearch, {
  ...caseless(extendedServices, ['title']),
  createdAt: extendedServices.createdAt,
});

async function findService(db: DbOrTx, id: number, lock = false): Promise<ServiceRow | undefined> {
  const query = db
    .select(serviceColumns)
    .from(extendedServices)
    .where(and(eq(extendedServices.id, id), isNull(extendedServices.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: extendedServices }) : await query;
  return row;
}

/**
 * /admin/partners/extended-services: the services partners offer. Delete is soft and unlinks the
 * service from its partners in the same transaction (the event keeps which partners had it).
 */
export function extendedServiceRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  const notFound = () => new ApiError(404, msg.notFound);
  const load = async (tx: DbOrTx, id: number, lock = false) => {
    const row = await findService(tx, id, lock);
    if (!row) throw notFound();
    return row;
  };
  /** The live services, for the list and its export. */
  const list = listRoutes(ctx, 'GET /admin/partners/extended-services', {
    source: () =>
      tableSource(db, extendedServices, serviceColumns, {
        spec: serviceList,
        filters: [isNull(extendedServices.deletedAt)],
        map: (rows) => rows.map(toService),
      }),
    csv: { name: () => 'extended-services', columns: serviceCsvColumns },
  });

  return routeSet(guards)
    .on('GET /admin/partners/extended-services', list.page)
    .on('GET /admin/partners/extended-services/export', list.export)
    .on('GET /admin/partners/extended-services/{extendedServiceId}', async (c) =>
      ok(c, toService(await load(db, c.req.valid('param').extendedServiceId))),
    )
    .on('POST /admin/partners/extended-services', async (c) => {
      const body = c.req.valid('json');
      const { user: actor, now, record } = callerChange(c, ctx);
      const key = idempotencyKeyOf(c);
      const route = 'extended-service-create';
      const outcome = await runIdempotent(db, { key, userId: actor.id, route, body, now }, async (tx) => {
        const [created] = await tx
          .insert(extendedServices)
          .values({ title: body.title, description: body.description, createdAt: now, updatedAt: now })
          .returning({ id: extendedServices.id });
        await record(tx, {
          action: actions.createdService(body.title),
          entity: 'extended_service',
          entityId: created!.id,
          payload: { title: body.title },
        });
        return success(toService(await load(tx, created!.id)), msg.created, 201);
      });
      return respond(c, outcome);
    })
    .on('PATCH /admin/partners/extended-services', async (c) => {
      const body = c.req.valid('json');
      const { user: actor, now, record } = callerChange(c, ctx);
      const key = idempotencyKeyOf(c);
      const expected = expectedVersionOf(c);
      await load(db, body.extendedServiceId);
      const route = 'extended-service-update';
      const outcome = await runIdempotent(db, { key, userId: actor.id, route, body, now }, async (tx) => {
        const before = await load(tx, body.extendedServiceId, true);
        if (isStale(expected, before.updatedAt)) return conflict(toService(before));
        const changes: Partial<typeof extendedServices.$inferInsert> = {};
        if (body.title !== undefined && body.title !== before.title) changes.title = body.title;
        if (body.description !== undefined && body.description !== before.description)
          changes.description = body.description;
        if (Object.keys(changes).length > 0) {
          await tx
            .update(extendedServices)
            .set({ ...changes, updatedAt: now })
            .where(eq(extendedServices.id, before.id));
          await record(tx, {
            action: actions.updatedService(changes.title ?? before.title, before.title),
            entity: 'extended_service',
            entityId: before.id,
            payload: { fields: Object.keys(changes), previousTitle: before.title },
          });
        }
        return success(toService(await load(tx, before.id)), msg.updated);
      });
      return respond(c, outcome);
    })
    .on('DELETE /admin/partners/extended-services/{extendedServiceId}', async (c) => {
      const { extendedServiceId } = c.req.valid('param');
      const { now, commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const service = await load(tx, extendedServiceId, true);
        await tx
          .update(extendedServices)
          .set({ deletedAt: now, updatedAt: now })
          .where(eq(extendedServices.id, extendedServiceId));
        const unlinked = await tx
          .delete(partnerExtendedServices)
          .where(eq(partnerExtendedServices.extendedServiceId, extendedServiceId))
          .returning({ partnerId: partnerExtendedServices.partnerId });
        return {
          action: actions.deletedService(service.title),
          entity: 'extended_service',
          entityId: extendedServiceId,
          payload: { title: service.title, unlinkedPartnerIds: unlinked.map((u) => u.partnerId) },
        };
      });
      return ok(c, null, msg.deleted);
    }).router;
}
