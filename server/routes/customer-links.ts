import { and, asc, eq, isNull } from 'drizzle-orm';
import { type CustomerLink, customerLinkMessages as msg } from '../../contract/customer-links';
import { customerServerMessages } from '../../contract/customers';
import type { ErrorCode } from '../../contract/error-codes';
import { customerLinks, customers, partners } from '../db/schema';
import {
  countWrongLinkAttempt,
  createLinkRequest,
  hashLinkCode,
  LINK_DAILY_CAP,
  linkableCustomer,
  linkBlocker,
  linkCapRetryAfter,
  linkMail,
  requestedKey,
  requestsToday,
} from '../domain/customer-links';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { generateOtp, maskEmail, OTP_MAX_ATTEMPTS, otpMessages, sameHash } from '../domain/otp';
import { transactingPartner } from '../domain/partners';
import {
  buckets,
  checkRateLimits,
  OTP_SEND_IP_LIMIT,
  OTP_SEND_LIMIT,
  recordHit,
  takeRateLimits,
} from '../domain/rate-limit';
import { guessLimits } from '../domain/redemption';
import { scopedPartnerId, staffUserId } from '../domain/scope';
import { fullName } from '../domain/users';
import { ApiError, fieldError, tooManyRequests } from '../errors';
import { callerChange } from '../http/change';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { reportRateLimits } from '../http/rate-limit-headers';
import { routeSet } from '../http/route';

/** A link code that cannot be used, with its catalogue code (decision 063); a 429 says when to retry. */
const codeError = (status: 400 | 429, message: string, code: ErrorCode) =>
  new ApiError(
    status,
    message,
    [{ fieldName: 'code', message }],
    status === 429 ? { 'Retry-After': '1' } : {},
    code,
  );
const LINK_CODES = { used: 'otp_used', locked: 'otp_locked', expired: 'otp_expired' } as const;

/**
 * Consent links (issue 28, docs/decisions/053-customer-links.md): the partner asks, the customer is
 * mailed a code, the partner enters it. The answers never tell whether the customer exists.
 */
export function customerLinkRoutes(ctx: RouteContext) {
  const { db, clock, config, guards, mailer } = ctx;
  return routeSet(guards)
    .on('POST /partners/customer-links', async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      const partnerId = scopedPartnerId(user, body.partnerId);
      if (partnerId === null) throw fieldError('partnerId', 'partnerId is required for club staff');
      // Codes per staff member (or key) and per client address, as the redemption codes (decision 013).
      const limits = [
        [buckets.otpSend(user.id), OTP_SEND_LIMIT],
        [meta.ipAddress && buckets.otpSendIp(meta.ipAddress), OTP_SEND_IP_LIMIT],
      ] as const;
      const limit = await takeRateLimits(db, limits, now);
      await reportRateLimits(c, db, limits, now);
      if (limit.blocked) throw tooManyRequests(otpMessages.tooManySendsPrefix, limit.retryAfterSeconds);
      const requested = requestedKey(body);
      const code = generateOtp();
      const id = await db.transaction(async (tx) => {
        const partner = await transactingPartner(tx, partnerId, 'partnerId');
        // The daily cap counts requests for nobody alike, so it tells nothing either.
        if ((await requestsToday(tx, partner.id, requested, now)) >= LINK_DAILY_CAP)
          throw new ApiError(
            429,
            msg.dailyCap,
            [],
            { 'Retry-After': String(await linkCapRetryAfter(tx, partner.id, requested, now)) },
            'link_daily_cap',
          );
        const customer = await linkableCustomer(tx, body);
        const linkId = await createLinkRequest(tx, {
          partnerId: partner.id,
          customerId: customer?.id ?? null,
          requested,
          createdBy: staffUserId(user),
          secret: config.jwtSecret,
          code,
          now,
        });
        if (customer) await mailer.enqueue(tx, linkMail(customer.email, code, partner.organizationName), now);
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.sentLinkCode(partner.organizationName),
          entity: 'customer_link',
          entityId: linkId,
          payload: { partnerId: partner.id },
          meta,
          at: now,
        });
        return linkId;
      });
      mailer.kick();
      const expiresAt = new Date(now.getTime() + 5 * 60 * 1000).toISOString();
      return ok(c, { id, expiresAt }, msg.sent, 201);
    })
    .on('POST /partners/customer-links/{linkId}/confirm', async (c) => {
      const user = c.get('user');
      const { linkId } = c.req.valid('param');
      const { code } = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      const guess = guessLimits(user.id, meta.ipAddress);
      const state = await checkRateLimits(db, guess, now);
      if (state.blocked)
        throw tooManyRequests(otpMessages.tooManyGuessesPrefix, state.retryAfterSeconds, 'code');
      const scope = user.partnerId;
      const answer = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(customerLinks)
          .where(
            and(
              eq(customerLinks.id, linkId),
              scope === null ? undefined : eq(customerLinks.partnerId, scope),
            ),
          )
          .for('update');
        if (!row) throw new ApiError(404, msg.notFound);
        const partner = await transactingPartner(tx, row.partnerId);
        if (row.state === 'PENDING') {
          const blocker = linkBlocker(row, now);
          if (blocker) {
            const text =
              blocker.kind === 'used'
                ? msg.used
                : blocker.kind === 'locked'
                  ? otpMessages.locked
                  : msg.expired;
            throw codeError(blocker.status, text, LINK_CODES[blocker.kind as keyof typeof LINK_CODES]);
          }
          const matches =
            row.customerId !== null &&
            row.codeHash !== null &&
            sameHash(hashLinkCode(config.jwtSecret, row.id, code), row.codeHash);
          if (!matches) {
            const attempts = await countWrongLinkAttempt(tx, row.id);
            for (const [bucket, rule] of guess) if (bucket) await recordHit(tx, bucket, rule, now);
            await recordEvent(tx, {
              actor: actorOfAuthUser(user),
              action: actions.wrongLinkCode(attempts ?? OTP_MAX_ATTEMPTS),
              entity: 'customer_link',
              entityId: row.id,
              meta,
              at: now,
            });
            return attempts === null
              ? ({ refuse: 429, message: otpMessages.locked, code: 'otp_locked' } as const)
              : ({
                  refuse: 400,
                  message: msg.wrong(OTP_MAX_ATTEMPTS - attempts),
                  code: 'otp_invalid',
                } as const);
          }
        }
        const [customer] = await tx
          .select()
          .from(customers)
          .where(
            and(eq(customers.id, row.customerId!), isNull(customers.deletedAt), isNull(customers.erasedAt)),
          );
        if (!customer) throw codeError(400, msg.wrong(0), 'otp_invalid');
        if (row.state === 'PENDING') {
          // One confirmed link per partner and customer: a second confirmation keeps the first.
          const [existing] = await tx
            .select({ id: customerLinks.id })
            .from(customerLinks)
            .where(
              and(
                eq(customerLinks.partnerId, row.partnerId),
                eq(customerLinks.customerId, customer.id),
                eq(customerLinks.state, 'CONFIRMED'),
              ),
            );
          if (existing) {
            await tx.update(customerLinks).set({ replacedAt: now }).where(eq(customerLinks.id, row.id));
          } else {
            await tx
              .update(customerLinks)
              .set({ state: 'CONFIRMED', confirmedAt: now, codeHash: null })
              .where(eq(customerLinks.id, row.id));
          }
          await recordEvent(tx, {
            actor: actorOfAuthUser(user),
            action: actions.linkedCustomer(fullName(customer), partner.organizationName),
            entity: 'customer_link',
            entityId: existing?.id ?? row.id,
            payload: { partnerId: row.partnerId, customerId: customer.id },
            meta,
            at: now,
            webhook: existing
              ? undefined
              : {
                  type: 'customer.linked',
                  partnerId: row.partnerId,
                  data: {
                    linkId: row.id,
                    partnerId: row.partnerId,
                    customerId: customer.id,
                    linkedAt: now.toISOString(),
                  },
                },
          });
          return {
            id: existing?.id ?? row.id,
            partnerId: row.partnerId,
            customer: {
              id: customer.id,
              firstName: customer.firstName,
              lastName: customer.lastName,
              email: maskEmail(customer.email),
            },
          };
        }
        return {
          id: row.id,
          partnerId: row.partnerId,
          customer: {
            id: customer.id,
            firstName: customer.firstName,
            lastName: customer.lastName,
            email: maskEmail(customer.email),
          },
        };
      });
      if ('refuse' in answer && answer.refuse !== undefined)
        throw codeError(answer.refuse, answer.message, answer.code);
      return ok(c, answer, msg.linked);
    })
    .on('GET /admin/user/customers/{customerId}/links', async (c) => {
      const { customerId } = c.req.valid('param');
      const [customer] = await db
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.id, customerId), isNull(customers.deletedAt)));
      if (!customer) throw new ApiError(404, customerServerMessages.notFound);
      const rows = await db
        .select({
          id: customerLinks.id,
          partnerId: customerLinks.partnerId,
          organizationName: partners.organizationName,
          confirmedAt: customerLinks.confirmedAt,
          createdAt: customerLinks.createdAt,
        })
        .from(customerLinks)
        .innerJoin(partners, eq(partners.id, customerLinks.partnerId))
        .where(and(eq(customerLinks.customerId, customerId), eq(customerLinks.state, 'CONFIRMED')))
        .orderBy(asc(partners.organizationName), asc(customerLinks.id));
      const links: CustomerLink[] = rows.map((r) => ({
        ...r,
        confirmedAt: r.confirmedAt?.toISOString() ?? null,
        createdAt: r.createdAt.toISOString(),
      }));
      return ok(c, links);
    })
    .on('DELETE /admin/user/customers/{customerId}/links/{linkId}', async (c) => {
      const { customerId, linkId } = c.req.valid('param');
      const { now, commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const [row] = await tx
          .select({
            id: customerLinks.id,
            partnerId: customerLinks.partnerId,
            organizationName: partners.organizationName,
            firstName: customers.firstName,
            lastName: customers.lastName,
          })
          .from(customerLinks)
          .innerJoin(partners, eq(partners.id, customerLinks.partnerId))
          .innerJoin(customers, eq(customers.id, customerLinks.customerId))
          .where(
            and(
              eq(customerLinks.id, linkId),
              eq(customerLinks.customerId, customerId),
              eq(customerLinks.state, 'CONFIRMED'),
            ),
          )
          .for('update');
        if (!row) throw new ApiError(404, msg.linkNotFound);
        await tx.delete(customerLinks).where(eq(customerLinks.id, row.id));
        return {
          action: actions.unlinkedCustomer(fullName(row), row.organizationName),
          entity: 'customer_link',
          entityId: row.id,
          payload: { partnerId: row.partnerId, customerId },
          webhook: {
            type: 'customer.unlinked',
            partnerId: row.partnerId,
            data: { linkId: row.id, partnerId: row.partnerId, customerId, unlinkedAt: now.toISOString() },
          },
        };
      });
      return ok(c, null, msg.unlinked);
    }).router;
}
