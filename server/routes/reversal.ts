import { and, eq } from 'drizzle-orm';
import { formatNaira } from '../../contract/money';
import type { ReversalResult } from '../../contract/redemption';
import { rewardServerMessages as rmsg } from '../../contract/rewards';
import { sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { rewardLedger, rewards } from '../db/schema';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { runIdempotent, success } from '../domain/idempotency';
import { reverseEntry } from '../domain/ledger';
import { rewardById, statusAt } from '../domain/rewards';
import { partnerScope, staffUserId } from '../domain/scope';
import { ApiError } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { routeSet } from '../http/route';

/**
 * POST /partners/rewards/reverse-redemption: undoes one redemption (a gift card's debit or a
 * coupon's use) with a ledger entry of its own, at most once (a unique index backs the check), with
 * its reason in the event log and the `reward.reversed` webhook.
 */
export function reversalRoutes(ctx: RouteContext) {
  const { db, clock, config, guards } = ctx;
  return routeSet(guards).on('POST /partners/rewards/reverse-redemption', async (c) => {
    const user = c.get('user');
    const body = c.req.valid('json');
    const now = clock();
    const meta = requestMeta(c, config.trustProxy);
    const key = idempotencyKeyOf(c);
    const scope = partnerScope(user);
    try {
      const outcome = await runIdempotent(
        db,
        { key, userId: user.id, route: 'reverse-redemption', body, now },
        async (tx) => {
          const [entry] = await tx
            .select({ e: rewardLedger, partnerId: rewards.partnerId })
            .from(rewardLedger)
            .innerJoin(rewards, eq(rewards.id, rewardLedger.rewardId))
            .where(
              and(
                eq(rewardLedger.id, body.ledgerEntryId),
                scope === null ? undefined : eq(rewards.partnerId, scope),
              ),
            );
          if (!entry) throw new ApiError(404, rmsg.entryNotFound);
          if (entry.e.kind !== 'REDEEM')
            throw new ApiError(409, rmsg.notARedemption, [], {}, 'not_a_redemption');
          const [already] = await tx
            .select({ id: rewardLedger.id })
            .from(rewardLedger)
            .where(eq(rewardLedger.reversesId, entry.e.id));
          if (already) throw new ApiError(409, rmsg.alreadyReversed, [], {}, 'reward_reversed');
          const amount = -entry.e.amount;
          const done = await reverseEntry(tx, {
            entryId: entry.e.id,
            rewardId: entry.e.rewardId,
            amount,
            reason: body.reason,
            actorId: staffUserId(user),
            now,
          });
          const row = (await rewardById(tx, entry.e.rewardId))!;
          await recordEvent(tx, {
            actor: actorOfAuthUser(user),
            action: actions.reversedRedemption(
              row.r.rewardType === 'GIFTCARD' ? formatNaira(amount) : 'a coupon',
              row.r.code,
              body.reason,
            ),
            entity: 'reward',
            entityId: row.r.id,
            payload: {
              reason: body.reason,
              reversedEntryId: entry.e.id,
              ledgerEntryId: done.ledgerEntryId,
              amount,
              balance: done.balance,
              customerId: row.r.customerId,
            },
            meta,
            at: now,
            webhook: {
              type: 'reward.reversed',
              partnerId: row.r.partnerId,
              data: {
                rewardId: row.r.id,
                code: row.r.code,
                rewardType: row.r.rewardType,
                partnerId: row.r.partnerId,
                customerId: row.r.customerId,
                ledgerEntryId: done.ledgerEntryId,
                reversedEntryId: entry.e.id,
                amountReversed: amount,
                balance: row.r.rewardType === 'GIFTCARD' ? done.balance : null,
                reason: body.reason,
                reversedAt: now.toISOString(),
              },
            },
          });
          const result: ReversalResult = {
            rewardId: row.r.id,
            ledgerEntryId: done.ledgerEntryId,
            reversedEntryId: entry.e.id,
            code: row.r.code,
            rewardType: row.r.rewardType,
            amountReversed: amount,
            balance: row.r.rewardType === 'GIFTCARD' ? done.balance : null,
            status: statusAt(row.r, now),
            reason: body.reason,
            reversedAt: now.toISOString(),
          };
          return success(result, rmsg.reversed);
        },
      );
      return respond(c, outcome);
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION)
        throw new ApiError(409, rmsg.alreadyReversed, [], {}, 'reward_reversed');
      throw err;
    }
  }).router;
}
