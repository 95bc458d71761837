import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { customerLinks, partners } from '../db/schema';
import { enqueueWebhooks, type WebhookEvent } from './webhooks';

/**
 * Block and unblock as partner systems hear them (issue 31, docs/decisions/065). A partner hears
 * only of the customers linked to it (decisions 053, 054): each such partner's own endpoints get a
 * message with the ids and the new status, no personal data; the club-wide endpoints get the
 * customer's record from the caller (`customerRecordMessage`). A partner's own block goes to its
 * endpoints and the club-wide ones, like its visits and rewards.
 */
type AccountStatus = 'ACTIVE' | 'BLOCKED';

const customerType = (s: AccountStatus) => (s === 'BLOCKED' ? 'customer.blocked' : 'customer.unblocked');

/** Queues the partner side of a customer's new status: one message per linked live partner. */
export async function enqueueLinkedPartnersStatus(
  tx: DbOrTx,
  customerId: number,
  accountStatus: AccountStatus,
  at: Date,
): Promise<void> {
  const linked = await tx
    .selectDistinct({ partnerId: customerLinks.partnerId })
    .from(customerLinks)
    .innerJoin(partners, eq(partners.id, customerLinks.partnerId))
    .where(
      and(
        eq(customerLinks.customerId, customerId),
        eq(customerLinks.state, 'CONFIRMED'),
        isNull(partners.deletedAt),
      ),
    )
    .orderBy(customerLinks.partnerId);
  for (const { partnerId } of linked) {
    await enqueueWebhooks(
      tx,
      {
        type: customerType(accountStatus),
        partnerId,
        partnerOnly: true,
        data: { partnerId, customerId, accountStatus, changedAt: at.toISOString() },
      },
      at,
    );
  }
}

/** `api_key.revoked`: a partner's key to its endpoints and club-wide ones; a club key (partnerId null) club-wide only. */
export const apiKeyRevokedMessage = (
  key: { id: number; partnerId: number | null; name: string; prefix: string },
  at: Date,
): WebhookEvent => ({
  type: 'api_key.revoked',
  partnerId: key.partnerId,
  data: {
    apiKeyId: key.id,
    partnerId: key.partnerId,
    name: key.name,
    prefix: key.prefix,
    revokedAt: at.toISOString(),
  },
});

/** `partner.blocked` / `partner.unblocked`: to the partner's endpoints and the club-wide ones. */
export const partnerStatusMessage = (
  partnerId: number,
  accountStatus: AccountStatus,
  at: Date,
): WebhookEvent => ({
  type: accountStatus === 'BLOCKED' ? 'partner.blocked' : 'partner.unblocked',
  partnerId,
  data: { partnerId, accountStatus, changedAt: at.toISOString() },
});
