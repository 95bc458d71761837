import { idField } from './ids';
import { otpField } from './redemption';
import { emailField } from './validation';
import { z } from './zod';

/*
 * Consent links (issue 28, docs/decisions/053-customer-links.md): a partner acts for a customer
 * only once the customer gave the one-time code mailed to them.
 */

/** The member number a customer gives at a counter: 'RC-' and their id on at least 6 digits. */
export const memberNumberOf = (customerId: number): string => `RC-${String(customerId).padStart(6, '0')}`;

/** 'RC-000123', 'rc-123', 'RC000123' → 123; anything else → null. */
export function parseMemberNumber(text: string): number | null {
  const match = /^\s*RC-?0*(\d{1,10})\s*$/i.exec(text);
  if (!match) return null;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

export const customerLinkMessages = {
  oneOf: "Give the customer's email address or their member number (not both)",
  memberNumber: 'A member number looks like RC-000123',
  sent: 'If the customer is a member, they were sent a code. Ask them for it.',
  linked: 'The customer is linked to your partner.',
  notFound: 'Link request not found',
  wrong: (left: number) => `The code is not correct. ${left} attempt${left === 1 ? '' : 's'} left.`,
  expired: 'The code has expired. Send a new code.',
  used: 'This request was replaced by a newer one. Use the latest code.',
  dailyCap: 'Too many codes were asked for this customer today. Try again tomorrow.',
  notLinked:
    'This customer is not linked to your partner. Send the customer a code to link them (they give it to you at the counter).',
  unlinked: 'The link was removed.',
  linkNotFound: 'Link not found',
} as const;

/** POST /partners/customer-links: ask for a link by the whole email address or by the member number. */
export const createCustomerLinkBodySchema = z
  .object({
    email: z.optional(emailField),
    memberNumber: z.optional(
      z.string({ error: customerLinkMessages.memberNumber }).check(
        z.maxLength(20, { error: customerLinkMessages.memberNumber }),
        z.refine((v) => parseMemberNumber(v) !== null, { error: customerLinkMessages.memberNumber }),
      ),
    ),
    partnerId: z.optional(idField('partnerId')),
  })
  .check(
    z.refine((b) => (b.email === undefined) !== (b.memberNumber === undefined), {
      error: customerLinkMessages.oneOf,
      path: ['email'],
    }),
  );

/** The request's id: the same answer whether or not the customer exists. */
export const customerLinkRequestSchema = z.object({ id: z.int(), expiresAt: z.string() });

export const customerLinkIdParamSchema = z.object({ linkId: idField('linkId') });
export const confirmCustomerLinkBodySchema = z.object({ code: otpField });

/** A confirmed link, as the partner sees it: the customer's name and masked email. */
export const confirmedLinkSchema = z.object({
  id: z.int(),
  partnerId: z.int(),
  customer: z.object({ id: z.int(), firstName: z.string(), lastName: z.string(), email: z.string() }),
});
export type ConfirmedLink = z.infer<typeof confirmedLinkSchema>;

/** A customer's link, as a club admin sees it on the client detail. */
export const customerLinkSchema = z.object({
  id: z.int(),
  partnerId: z.int(),
  organizationName: z.string(),
  confirmedAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type CustomerLink = z.infer<typeof customerLinkSchema>;

export const customerLinkParamsSchema = z.object({
  customerId: idField('customerId'),
  linkId: idField('linkId'),
});
