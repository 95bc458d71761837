import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../db/app-db';
import { overlayData, overlayRecord, queuedFields, queuedPatch } from './outbox-overlay';

/** Issue 17, defect 4: queued edits over the cached record, composed field by field. */

type Edit = Pick<OutboxEntry, 'entity' | 'entityId' | 'body' | 'status'>;
const edit = (body: Record<string, unknown>, more: Partial<Edit> = {}): Edit => ({
  entity: 'partner',
  entityId: 7,
  body: { partnerId: 7, ...body },
  status: 'pending',
  ...more,
});

const partner = {
  id: 7,
  organizationName: 'Eko Grill House',
  address: '3 Awolowo Road',
  phone: '08031234567',
  minSpendToQualify: 10_000,
  extendedServiceIds: [1],
  coverImage: '/api/v1/files/abc',
  updatedAt: '2026-11-25T09:00:00.000Z',
};

describe('queued edits over cached data', () => {
  it('a second queued edit of other fields keeps the first (composed field by field, oldest first)', () => {
    const entries = [edit({ address: '14 Broad Street' }), edit({ phone: '08039999999' })];
    expect(queuedPatch(entries, 'partner', 7)).toEqual({ address: '14 Broad Street', phone: '08039999999' });
    const shown = overlayRecord(partner, entries, 'partner');
    expect(shown).toEqual({ ...partner, address: '14 Broad Street', phone: '08039999999' });
    expect(queuedFields(entries, 'partner', 7)).toEqual(['address', 'phone']);
  });

  it('a later edit of the same field wins, including one back to the server value', () => {
    const entries = [edit({ address: '14 Broad Street' }), edit({ address: partner.address })];
    expect(overlayRecord(partner, entries, 'partner').address).toBe(partner.address);
    const later = [edit({ address: 'A' }), edit({ phone: '1' }), edit({ address: 'B' })];
    expect(overlayRecord(partner, later, 'partner')).toMatchObject({ address: 'B', phone: '1' });
  });

  it('never changes the version, ids, images or fields the record does not have', () => {
    const entries = [
      edit({ coverImage: 'data:image/png;base64,AAAA', minSpendToQualify: 5000, extendedServiceIds: [2, 3] }),
      edit({ unknownField: 'x', updatedAt: 'never' }),
    ];
    const shown = overlayRecord(partner, entries, 'partner');
    // The version stays the server's: a next edit names it in If-Match.
    expect(shown).toEqual({ ...partner, minSpendToQualify: 5000, extendedServiceIds: [2, 3] });
    expect(shown).not.toHaveProperty('partnerId');
    expect(shown).not.toHaveProperty('unknownField');
  });

  it('leaves other records, other entities and refused edits alone (the same object back)', () => {
    const entries = [
      edit({ address: 'other partner' }, { entityId: 8 }),
      edit({ address: 'a client' }, { entity: 'customer' }),
      edit({ address: 'refused' }, { status: 'failed' }),
    ];
    const shown = overlayRecord(partner, entries, 'partner');
    expect(shown).toBe(partner);
    expect(queuedPatch(entries, 'partner', 7)).toBeNull();
  });

  it('overlays the rows of a list page, keeping the page (and its identity when nothing changes)', () => {
    const page = { records: [partner, { ...partner, id: 8, address: 'Eight' }], meta: { totalCount: 2 } };
    const entries = [edit({ address: 'Seven, edited' })];
    const shown = overlayData(page, entries, 'partner');
    expect(shown.records.map((r) => r.address)).toEqual(['Seven, edited', 'Eight']);
    expect(shown.meta).toBe(page.meta);
    expect(shown.records[1]).toBe(page.records[1]);
    expect(overlayData(page, [], 'partner')).toBe(page);
    expect(overlayData(page, [edit({ address: 'x' }, { entityId: 99 })], 'partner')).toBe(page);
    expect(overlayData(undefined, entries, 'partner')).toBeUndefined();
  });
});
