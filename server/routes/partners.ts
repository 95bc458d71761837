import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import {
  createPartnerBodySchema,
  partnerServerMessages as msg,
  PARTNER_WELCOME_MAIL_SUBJECT,
  type Partner,
  type PartnerStats,
  partnerIdParamSchema,
  partnerIdQuerySchema,
  partnerListQuerySchema,
  partnerMessages,
  partnerStatusBodySchema,
  updatePartnerBodySchema,
} from '../../contract/partners';
import type { DbOrTx } from '../db/client';
import { sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { partnerExtendedServices, partners, passwordResetCodes, users } from '../db/schema';
import { rewardActivity, rewardStats } from '../domain/analytics';
import { livePartnerCount, partnerStats } from '../domain/counts';
import { actions, actorOfAuthUser, recordEvent, requestMeta } from '../domain/events';
import { runIdempotent } from '../domain/idempotency';
import { storeFile } from '../domain/images';
import {
  findLivePartner,
  missingServices,
  type PartnerRow,
  partnerColumns,
  partnerWithServices,
  servicesOf,
  toPartners,
} from '../domain/partners';
import { revokeAllForUser } from '../domain/sessions';
import { fullName } from '../domain/users';
import { assertPartnerScope, partnerScope } from '../http/access';
import type { AppEnv, AuthUser, RouteContext } from '../http/context';
import { type CsvColumn, exportCsv } from '../http/csv-export';
import { ApiError, fieldError, ok } from '../http/errors';
import { idempotencyKeyOf, respond, success } from '../http/idempotency';
import { imageField } from '../http/images';
import { type ListSpec, listPage } from '../http/list';
import { jsonBody, pathParams, queryParams } from '../http/validate';
import { conflict, expectedVersionOf, isStale } from '../http/versions';

/** Kept equal to the expression of the trigram index partners_search_trgm_idx (schema.ts). */
const partnerSearch = sql`(${partners.organizationName} || ' ' || ${partners.firstName} || ' ' || ${partners.lastName} || ' ' || ${partners.email})`;

const partnerList: ListSpec<'organizationName' | 'firstName' | 'lastName' | 'email' | 'createdAt'> = {
  sortColumns: {
    organizationName: sql`lower(${partners.organizationName})`,
    firstName: sql`lower(${partners.firstName})`,
    lastName: sql`lower(${partners.lastName})`,
    email: sql`lower(${partners.email})`,
    createdAt: partners.createdAt,
  },
  defaultSort: { by: 'createdAt', order: 'desc' },
  tieBreaker: partners.id,
  searchTarget: partnerSearch,
  dateColumn: partners.createdAt,
};

/** A partner's contact email is unique among live partners: the unique index decides a race. */
async function uniqueEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (sqlState(err) === UNIQUE_VIOLATION) throw fieldError('email', msg.emailTaken, 409);
    throw err;
  }
}

async function assertEmailFree(db: DbOrTx, email: string) {
  const [clash] = await db
    .select({ id: partners.id })
    .from(partners)
    .where(and(sql`lower(${partners.email}) = ${email.toLowerCase()}`, isNull(partners.deletedAt)))
    .limit(1);
  if (clash) throw fieldError('email', msg.emailTaken, 409);
}

async function assertServices(tx: DbOrTx, ids: readonly number[]) {
  const missing = await missingServices(tx, ids);
  if (missing.length) {
    throw fieldError('extendedServiceIds', `${msg.unknownServicesPrefix} ${missing.join(', ')}`);
  }
}

const partnerCsvColumns: CsvColumn<Partner>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'Organization', value: (p) => p.organizationName },
  { header: 'First name', value: (p) => p.firstName },
  { header: 'Last name', value: (p) => p.lastName },
  { header: 'Email', value: (p) => p.email },
  { header: 'Phone', value: (p) => p.phone },
  { header: 'Address', value: (p) => p.address },
  { header: 'Minimum spend to qualify (NGN)', value: (p) => p.minSpendToQualify },
  { header: 'Extended services', value: (p) => p.partnerExtendedServices.map((x) => x.title).join('; ') },
  { header: 'Status', value: (p) => p.accountStatus },
  { header: 'Created', value: (p) => p.createdAt },
];

export function partnerWelcomeMail(p: { email: string; firstName: string; organizationName: string }) {
  return {
    to: p.email,
    subject: PARTNER_WELCOME_MAIL_SUBJECT,
    text: [
      `Hello ${p.firstName},`,
      '',
      `${p.organizationName} is now a partner of the Reward Club.`,
      '',
      'Club members who visit you can now earn rewards: gift cards, coupons and discounted fiber',
      'subscriptions. Your staff will receive their own invitations to the partner console, each with',
      'a set-password code, from the Reward Club team.',
      '',
      'Reward Club',
    ].join('\n'),
  };
}

/** /admin/partners: partners, their figures, and the partner's analytics. */
export function partnerRoutes(ctx: RouteContext) {
  const { db, clock, config, guards, mailer } = ctx;
  const notFound = () => new ApiError(404, msg.notFound);
  const load = async (tx: DbOrTx, id: number, lock = false): Promise<PartnerRow> => {
    const row = await findLivePartner(tx, id, lock);
    if (!row) throw notFound();
    return row;
  };

  const listFilters = (user: AuthUser, q: { status?: 'ACTIVE' | 'BLOCKED' | undefined }) => [
    isNull(partners.deletedAt),
    q.status ? eq(partners.accountStatus, q.status) : undefined,
    // Partner staff list only their own partner.
    partnerScope(user) === null ? undefined : eq(partners.id, partnerScope(user)!),
  ];
  /** All live partners (of the status asked), from the counter; partner staff count their own row. */
  const totalPartners = (user: AuthUser, q: { status?: 'ACTIVE' | 'BLOCKED' | undefined }) =>
    partnerScope(user) === null ? () => livePartnerCount(db, q.status) : undefined;
  const countPartners = async (where: SQL | undefined) => {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(partners).where(where);
    return Number(row?.n ?? 0);
  };

  return new Hono<AppEnv>()
    .get('/stats/reward', guards.requirePermission('dashboard.view', 'partner'), async (c) => {
      // Partner staff see their own partner's figures, never the club's.
      const scope = partnerScope(c.get('user'));
      return ok(c, await rewardStats(db, scope === null ? {} : { partnerId: scope }));
    })
    .get('/stats/reward/weekly', guards.requirePermission('dashboard.view', 'partner'), async (c) => {
      // The charts of the dashboard home: partner staff see their own partner's weeks, never the club's.
      const scope = partnerScope(c.get('user'));
      return ok(
        c,
        await rewardActivity(db, { now: clock(), ...(scope === null ? {} : { partnerId: scope }) }),
      );
    })
    .get('/stats', guards.requirePermission('partners.view', 'club'), async (c) => {
      // Live partners by status, from the counters of migration 0012 (decision 011).
      const stats: PartnerStats = await partnerStats(db);
      return ok(c, stats);
    })
    .get(
      '/stats/partner',
      guards.requirePermission('partners.view', 'partner'),
      queryParams(partnerIdQuerySchema),
      async (c) => {
        const { partnerId } = c.req.valid('query');
        assertPartnerScope(c.get('user'), partnerId, msg.notFound);
        await load(db, partnerId);
        return ok(c, await rewardStats(db, { partnerId }));
      },
    )
    .get(
      '/stats/partner/weekly',
      guards.requirePermission('partners.view', 'partner'),
      queryParams(partnerIdQuerySchema),
      async (c) => {
        const { partnerId } = c.req.valid('query');
        assertPartnerScope(c.get('user'), partnerId, msg.notFound);
        await load(db, partnerId);
        return ok(c, await rewardActivity(db, { now: clock(), partnerId }));
      },
    )
    .get(
      '/',
      guards.requirePermission('partners.view', 'club'),
      queryParams(partnerListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const data = await listPage(partnerList, q, {
          filters: listFilters(c.get('user'), q),
          rows: async (p) =>
            toPartners(
              db,
              await db
                .select(partnerColumns)
                .from(partners)
                .where(p.where)
                .orderBy(...p.orderBy)
                .limit(p.limit)
                .offset(p.offset),
            ),
          count: countPartners,
          total: totalPartners(c.get('user'), q),
        });
        return ok(c, data);
      },
    )
    .get(
      '/export',
      guards.requirePermission('partners.view', 'club'),
      queryParams(partnerListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        return exportCsv(c, {
          name: q.status === 'BLOCKED' ? 'partners-blocked' : 'partners',
          spec: partnerList,
          query: q,
          filters: listFilters(c.get('user'), q),
          columns: partnerCsvColumns,
          clock,
          log: ctx.log,
          batchSize: ctx.config.exportBatchSize,
          count: countPartners,
          total: totalPartners(c.get('user'), q),
          batch: async (p) => {
            const raw = await db
              .select({ ...partnerColumns, ...p.keyFields })
              .from(partners)
              .where(p.where)
              .orderBy(...p.orderBy)
              .limit(p.limit);
            return { records: await toPartners(db, raw), last: raw.at(-1) };
          },
        });
      },
    )
    .get(
      '/:partnerId{[0-9]+}',
      guards.requirePermission('partners.view', 'partner'),
      pathParams(partnerIdParamSchema),
      async (c) => {
        const { partnerId } = c.req.valid('param');
        assertPartnerScope(c.get('user'), partnerId, msg.notFound);
        return ok(c, await partnerWithServices(db, await load(db, partnerId)));
      },
    )
    .post(
      '/invite',
      guards.requirePermission('partners.create', 'club'),
      jsonBody(createPartnerBodySchema),
      async (c) => {
        const actor = c.get('user');
        const body = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        const cover = imageField('coverImage', body.coverImage, partnerMessages.coverImageNotImage);
        await assertEmailFree(db, body.email);
        // Everything or nothing: the file, the partner, its services, the mail and the event.
        const id = await uniqueEmail(() =>
          db.transaction(async (tx) => {
            await assertServices(tx, body.extendedServiceIds);
            const coverImage = await storeFile(tx, cover.bytes, cover.mime, now);
            const [created] = await tx
              .insert(partners)
              .values({
                firstName: body.firstName,
                lastName: body.lastName,
                email: body.email,
                phone: body.phone,
                organizationName: body.organizationName,
                address: body.address,
                coverImage,
                minSpendToQualify: body.minSpendToQualify,
                createdAt: now,
                updatedAt: now,
              })
              .returning({ id: partners.id });
            const partnerId = created!.id;
            await tx.insert(partnerExtendedServices).values(
              [...new Set(body.extendedServiceIds)].map((extendedServiceId) => ({
                partnerId,
                extendedServiceId,
              })),
            );
            await mailer.enqueue(tx, partnerWelcomeMail(body), now);
            await recordEvent(tx, {
              actor: actorOfAuthUser(actor),
              action: actions.addedPartner(body.organizationName),
              entity: 'partner',
              entityId: partnerId,
              payload: {
                email: body.email,
                minSpendToQualify: body.minSpendToQualify,
                extendedServiceIds: body.extendedServiceIds,
                coverImage,
              },
              meta,
              at: now,
            });
            return partnerId;
          }),
        );
        mailer.kick();
        return ok(c, await partnerWithServices(db, await load(db, id)), partnerMessages.added, 201);
      },
    )
    .patch(
      '/update-record',
      guards.requirePermission('partners.update', 'club'),
      jsonBody(updatePartnerBodySchema),
      async (c) => {
        const actor = c.get('user');
        const body = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        const cover =
          body.coverImage !== undefined
            ? imageField('coverImage', body.coverImage, partnerMessages.coverImageNotImage)
            : undefined;
        const key = idempotencyKeyOf(c);
        const expected = expectedVersionOf(c);
        await load(db, body.partnerId);
        const route = 'partner-update';
        const outcome = await runIdempotent(db, { key, userId: actor.id, route, body, now }, async (tx) => {
          const before = await load(tx, body.partnerId, true);
          if (isStale(expected, before.updatedAt)) return conflict(await partnerWithServices(tx, before));
          const changes: Partial<typeof partners.$inferInsert> = {};
          const changed: string[] = [];
          const set = <K extends 'firstName' | 'lastName' | 'organizationName' | 'address' | 'phone'>(
            key: K,
            label: string,
          ) => {
            const value = body[key];
            if (value !== undefined && value !== before[key]) {
              changes[key] = value;
              changed.push(label);
            }
          };
          set('firstName', 'first name');
          set('lastName', 'last name');
          set('organizationName', 'organization name');
          set('address', 'address');
          set('phone', 'phone');
          if (body.minSpendToQualify !== undefined && body.minSpendToQualify !== before.minSpendToQualify) {
            changes.minSpendToQualify = body.minSpendToQualify;
            changed.push('minimum spend');
          }
          if (cover) {
            const url = await storeFile(tx, cover.bytes, cover.mime, now);
            if (url !== before.coverImage) {
              changes.coverImage = url;
              changed.push('cover image');
            }
          }
          if (body.extendedServiceIds !== undefined) {
            const next = [...new Set(body.extendedServiceIds)].sort((a, b) => a - b);
            const current = ((await servicesOf(tx, [before.id])).get(before.id) ?? []).map((x) => x.id);
            if (next.join(',') !== current.join(',')) {
              await assertServices(tx, next);
              await tx
                .delete(partnerExtendedServices)
                .where(eq(partnerExtendedServices.partnerId, before.id));
              await tx
                .insert(partnerExtendedServices)
                .values(next.map((extendedServiceId) => ({ partnerId: before.id, extendedServiceId })));
              changed.push('extended services');
            }
          }
          if (changed.length > 0) {
            await tx
              .update(partners)
              .set({ ...changes, updatedAt: now })
              .where(eq(partners.id, before.id));
            await recordEvent(tx, {
              actor: actorOfAuthUser(actor),
              action: actions.updatedPartner(changes.organizationName ?? before.organizationName, changed),
              entity: 'partner',
              entityId: before.id,
              payload: {
                fields: changed,
                ...(changes.organizationName ? { previousName: before.organizationName } : {}),
                ...(body.extendedServiceIds ? { extendedServiceIds: body.extendedServiceIds } : {}),
              },
              meta,
              at: now,
            });
          }
          return success(await partnerWithServices(tx, await load(tx, before.id)), msg.updated);
        });
        return respond(c, outcome);
      },
    )
    .patch(
      '/update-status',
      guards.requirePermission('partners.update', 'club'),
      jsonBody(partnerStatusBodySchema),
      async (c) => {
        const actor = c.get('user');
        const { partnerId, accountStatus } = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        await db.transaction(async (tx) => {
          const before = await load(tx, partnerId, true);
          if (before.accountStatus === accountStatus) return;
          await tx.update(partners).set({ accountStatus, updatedAt: now }).where(eq(partners.id, partnerId));
          await recordEvent(tx, {
            actor: actorOfAuthUser(actor),
            action:
              accountStatus === 'BLOCKED'
                ? actions.blockedPartner(before.organizationName)
                : actions.unblockedPartner(before.organizationName),
            entity: 'partner',
            entityId: partnerId,
            payload: { accountStatus, previousStatus: before.accountStatus },
            meta,
            at: now,
          });
        });
        return ok(
          c,
          await partnerWithServices(db, await load(db, partnerId)),
          accountStatus === 'BLOCKED' ? msg.blocked : msg.unblocked,
        );
      },
    )
    .delete(
      '/:partnerId{[0-9]+}',
      guards.requirePermission('partners.delete', 'club'),
      pathParams(partnerIdParamSchema),
      async (c) => {
        const actor = c.get('user');
        const { partnerId } = c.req.valid('param');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        await db.transaction(async (tx) => {
          const partner = await load(tx, partnerId, true);
          // Soft delete: hidden from lists and figures; visits, rewards and the event log keep it.
          await tx.update(partners).set({ deletedAt: now, updatedAt: now }).where(eq(partners.id, partnerId));
          // Its staff go with it: their accounts end, their sessions and unused codes stop working.
          const staff = await tx
            .update(users)
            .set({ deletedAt: now, updatedAt: now })
            .where(and(eq(users.partnerId, partnerId), isNull(users.deletedAt)))
            .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName });
          for (const s of staff) {
            await revokeAllForUser(tx, s.id, now);
            await tx
              .update(passwordResetCodes)
              .set({ usedAt: now })
              .where(and(eq(passwordResetCodes.userId, s.id), isNull(passwordResetCodes.usedAt)));
          }
          await recordEvent(tx, {
            actor: actorOfAuthUser(actor),
            action: actions.deletedPartner(partner.organizationName),
            entity: 'partner',
            entityId: partnerId,
            payload: {
              email: partner.email,
              staffRemoved: staff.map((s) => ({ id: s.id, name: fullName(s) })),
            },
            meta,
            at: now,
          });
        });
        return ok(c, null, msg.deleted);
      },
    );
}
