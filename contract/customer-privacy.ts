import { z } from './zod';

/*
 * The customer's rights (issue 28, docs/decisions/054-customer-erasure.md): a club admin holding
 * `customers.privacy` exports everything the club holds about a customer (the right of access) and
 * erases the customer (the right to erasure) while the books keep their amounts.
 */

export const customerPrivacyMessages = {
  exportFailed: 'The export could not be made. Try again.',
  erased:
    "The customer's personal data was erased. Their visits and rewards stay in the books without a name.",
  alreadyErased: "This customer's personal data was already erased.",
  redemptionInFlight:
    'A redemption of this customer is in progress (a code was sent and is still valid). Erase them once it is used or has expired (at most 5 minutes).',
  erasedNotice: 'Personal data erased',
} as const;

/** What erasure removes and what it keeps, as the confirm dialog says it (one source for both). */
export const erasureSummary = {
  goes: [
    'name, email, phone and address',
    'the image and the internet account number',
    'every link to a partner (partners are told: customer.erased)',
    'the name and email in the activity log (a reference like "erased customer #12" instead)',
  ],
  stays: [
    'visits, rewards and reward ledger amounts (club totals, partner figures and eligibility stay the same)',
    'the subscriber number, so an import cannot bring the customer back without Restore',
  ],
} as const;

/** POST /admin/user/customers/{customerId}/erase: what was done. */
export const erasedCustomerSchema = z.object({
  customerId: z.int(),
  erasedAt: z.string(),
  /** Links to partners removed (each partner heard `customer.erased`). */
  linksRemoved: z.int(),
  /** Activity-log events that named the customer, now naming the pseudonymous reference. */
  eventsPseudonymised: z.int(),
  /** Kept for the books: the customer's visits, rewards and ledger entries. */
  kept: z.object({ visits: z.int(), rewards: z.int(), ledgerEntries: z.int() }),
});
export type ErasedCustomer = z.infer<typeof erasedCustomerSchema>;

const exportedVisit = z.object({
  id: z.int(),
  partnerId: z.int(),
  partnerName: z.string(),
  attendantName: z.string(),
  visitDate: z.string(),
  totalAmount: z.number(),
  receiptImage: z.nullable(z.string()),
  createdAt: z.string(),
  items: z.array(z.object({ name: z.string(), quantity: z.int(), price: z.number() })),
});

const exportedReward = z.object({
  id: z.int(),
  partnerId: z.int(),
  partnerName: z.string(),
  rewardType: z.string(),
  rewardTypeCategory: z.string(),
  code: z.string(),
  title: z.string(),
  description: z.string(),
  expiryDate: z.nullable(z.string()),
  issuedAmount: z.nullable(z.number()),
  percentageDiscount: z.nullable(z.number()),
  balance: z.nullable(z.number()),
  status: z.string(),
  pointsClaimed: z.int(),
  createdAt: z.string(),
  redeemedAt: z.nullable(z.string()),
});

const exportedLedgerEntry = z.object({
  id: z.int(),
  rewardId: z.int(),
  kind: z.string(),
  amount: z.number(),
  reason: z.nullable(z.string()),
  reversesId: z.nullable(z.int()),
  at: z.string(),
});

const exportedLink = z.object({
  id: z.int(),
  partnerId: z.int(),
  partnerName: z.string(),
  state: z.string(),
  createdAt: z.string(),
  confirmedAt: z.nullable(z.string()),
});

const exportedEvent = z.object({
  id: z.int(),
  at: z.string(),
  actorType: z.string(),
  actorName: z.string(),
  actorOrganization: z.nullable(z.string()),
  action: z.string(),
  entity: z.string(),
  entityId: z.nullable(z.string()),
  payload: z.record(z.string(), z.unknown()),
  ipAddress: z.nullable(z.string()),
  ipLocation: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
});

/**
 * GET /admin/user/customers/{customerId}/data-export: one JSON file (an attachment, streamed) of
 * everything the club holds about the customer, each list oldest first.
 */
export const customerDataExportSchema = z.object({
  format: z.literal('reward-club.customer-data-export'),
  version: z.literal(1),
  exportedAt: z.string(),
  profile: z.object({
    id: z.int(),
    externalId: z.nullable(z.string()),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.nullable(z.string()),
    address: z.nullable(z.string()),
    imageUrl: z.nullable(z.string()),
    accountStatus: z.string(),
    internetAccountNumber: z.nullable(z.string()),
    fiberPlan: z.nullable(z.string()),
    fiberSpeedMbps: z.nullable(z.int()),
    fiberMonthlyFee: z.nullable(z.number()),
    fiberStatus: z.string(),
    fiberRenewalDate: z.nullable(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletedAt: z.nullable(z.string()),
  }),
  links: z.array(exportedLink),
  visits: z.array(exportedVisit),
  rewards: z.array(exportedReward),
  ledger: z.array(exportedLedgerEntry),
  events: z.array(exportedEvent),
});
export type CustomerDataExport = z.infer<typeof customerDataExportSchema>;
