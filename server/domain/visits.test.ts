import { describe, expect, it } from 'vitest';
import { setupTestServer } from '../../tests/setup/server';
import { type VisitRow, withItems } from './visits';

/**
 * A visit read back (decision 075): its review flags come from a text[] column, which a driver may
 * hand over as an array or as PostgreSQL's array literal ('{a,b}'); both read as the same flags.
 */
const t = setupTestServer();

const row = (over: Partial<VisitRow>): VisitRow => ({
  id: 2_000_000_001,
  customerId: 7,
  firstName: 'Kemi',
  lastName: 'Obi',
  attendantName: 'Bisi',
  visitDate: '2026-03-02T08:30:00.000Z',
  totalAmount: '2500.00',
  receiptImage: null,
  partnerId: 3,
  organizationName: 'Eko Grill',
  reviewState: 'waiting',
  reviewFlags: [],
  reviewReason: null,
  reviewedBy: null,
  reviewerFirst: null,
  reviewerLast: null,
  reviewedAt: null,
  ...over,
});

describe('withItems', () => {
  it('reads review flags given as an array literal the same as an array', async () => {
    const [literal, empty, array] = await withItems(t.db, [
      row({ reviewFlags: '{amount_above,receipt_missing}' }),
      row({ id: 2_000_000_002, reviewFlags: '{}' }),
      row({ id: 2_000_000_003, reviewFlags: ['amount_above', 'receipt_missing'] }),
    ]);
    expect(literal!.review.flags).toEqual(['amount_above', 'receipt_missing']);
    expect(empty!.review.flags).toEqual([]);
    expect(array!.review.flags).toEqual(['amount_above', 'receipt_missing']);
    expect(literal!.visitItems).toEqual([]);
    expect(literal!.totalAmount).toBe(2500);
  });

  it('names the reviewer by first and last name', async () => {
    const [decided] = await withItems(t.db, [
      row({
        reviewState: 'approved',
        reviewedBy: 9,
        reviewerFirst: 'Rita',
        reviewerLast: 'Review',
        reviewedAt: '2026-03-02T10:00:00.000Z',
      }),
    ]);
    expect(decided!.review).toEqual({
      state: 'approved',
      flags: [],
      reason: null,
      reviewedBy: { id: 9, name: 'Rita Review' },
      reviewedAt: '2026-03-02T10:00:00.000Z',
    });
  });
});
