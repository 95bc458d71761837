import { describe, expect, it } from 'vitest';
import type { z } from 'zod/mini';
import { MIN_SPEND_DEFAULT, type Partner, partnerMessages } from '../../contract/partners';
import {
  addPartnerFormSchema,
  editPartnerFormOf,
  editPartnerFormSchema,
  emptyPartnerForm,
  hasPartnerChanges,
  type PartnerFormValues,
  toCreatePartnerBody,
  toPartnerUpdate,
} from './partner-form';

const png = (name = 'cover.png', bytes = 10) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });

const valid: PartnerFormValues = {
  firstName: 'Chidi',
  lastName: 'Eze',
  email: 'chidi@mamaput.ng',
  phone: '08031234567',
  organizationName: 'Mama Put Kitchen',
  address: '12 Allen Avenue, Ikeja',
  coverImage: png(),
  minSpendToQualify: '10000',
  extendedServiceIds: [2],
};

const messagesOf = (values: PartnerFormValues, schema: z.ZodMiniType = addPartnerFormSchema) =>
  Object.fromEntries(
    (schema.safeParse(values).error?.issues ?? []).map((i) => [String(i.path[0]), i.message]),
  );

const partner: Partner = {
  id: 5,
  firstName: 'Chidi',
  lastName: 'Eze',
  email: 'chidi@mamaput.ng',
  phone: '08031234567',
  organizationName: 'Mama Put Kitchen',
  address: '12 Allen Avenue, Ikeja',
  coverImage: '/api/v1/files/abc',
  minSpendToQualify: 10000,
  accountStatus: 'ACTIVE',
  extendedServiceIds: [2, 3],
  partnerExtendedServices: [
    { id: 2, title: 'Fiber installation' },
    { id: 3, title: 'Free Wi-Fi' },
  ],
  reviewRules: { amountAbove: null, requireReceipt: false, maxVisitsPerDay: null },
  createdAt: '2026-01-10T09:00:00.000Z',
  updatedAt: '2026-01-10T09:00:00.000Z',
};

const readImage = async (file: File) => `base64-of-${file.name}`;

describe('partner add form (docs/product.md#validation)', () => {
  it('starts with minimum spend 10000 and nothing else filled', () => {
    expect(emptyPartnerForm.minSpendToQualify).toBe(String(MIN_SPEND_DEFAULT));
    expect(emptyPartnerForm.minSpendToQualify).toBe('10000');
    expect(emptyPartnerForm.coverImage).toBeNull();
    expect(emptyPartnerForm.extendedServiceIds).toEqual([]);
  });

  it('requires every field, with the spec messages', () => {
    expect(messagesOf({ ...emptyPartnerForm, minSpendToQualify: '' })).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'required',
      phone: 'Phone number is required',
      organizationName: 'Organization name is required',
      address: 'Address is required',
      coverImage: 'Cover image is required',
      minSpendToQualify: 'Minimum spend to qualify is required',
      extendedServiceIds: 'You must select at least one extended service',
    });
    expect(messagesOf(valid)).toEqual({});
  });

  it('checks the email and the phone length', () => {
    expect(messagesOf({ ...valid, email: 'chidi@' })).toEqual({ email: 'pls provide a valid email' });
    expect(messagesOf({ ...valid, phone: '123456' })).toEqual({
      phone: 'Phone number cannot be less than 7 digits',
    });
    expect(messagesOf({ ...valid, phone: '123456789012' })).toEqual({
      phone: 'Phone number should not exceed 11 digits',
    });
    expect(messagesOf({ ...valid, phone: '1234567' })).toEqual({});
    expect(messagesOf({ ...valid, phone: '12345678901' })).toEqual({});
  });

  it('takes only an image file as the cover image', () => {
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    const pdf = new File(['%PDF'], 'cover.pdf', { type: 'application/pdf' });
    expect(messagesOf({ ...valid, coverImage: text })).toEqual({
      coverImage: partnerMessages.coverImageNotImage,
    });
    expect(messagesOf({ ...valid, coverImage: pdf })).toEqual({
      coverImage: 'Cover image must be an image file',
    });
    for (const type of ['image/png', 'image/jpeg', 'image/webp']) {
      expect(messagesOf({ ...valid, coverImage: new File(['x'], 'c', { type }) })).toEqual({});
    }
  });

  it('refuses an image over 5 MiB', () => {
    const big = png('big.png', 5 * 1024 * 1024 + 1);
    expect(messagesOf({ ...valid, coverImage: big })).toEqual({ coverImage: 'Image must be at most 5 MiB' });
  });

  it('wants a number of at least 2000 as the minimum spend', () => {
    expect(messagesOf({ ...valid, minSpendToQualify: 'abc' })).toEqual({
      minSpendToQualify: 'Minimum spend to qualify must be a number',
    });
    expect(messagesOf({ ...valid, minSpendToQualify: '1999' })).toEqual({
      minSpendToQualify: 'Minimum spend to qualify must be at least ₦2,000',
    });
    expect(messagesOf({ ...valid, minSpendToQualify: '2000' })).toEqual({});
  });

  it('sends the cover image as base64 without a prefix and the minimum spend as a number', async () => {
    const body = await toCreatePartnerBody({ ...valid, firstName: '  Chidi ' }, readImage);
    expect(body).toEqual({
      firstName: 'Chidi',
      lastName: 'Eze',
      email: 'chidi@mamaput.ng',
      phone: '08031234567',
      organizationName: 'Mama Put Kitchen',
      address: '12 Allen Avenue, Ikeja',
      coverImage: 'base64-of-cover.png',
      minSpendToQualify: 10000,
      extendedServiceIds: [2],
    });
  });
});

describe('partner edit form (docs/product.md#validation)', () => {
  const schema = editPartnerFormSchema(partner);

  it('starts from the record with a blank cover image', () => {
    const values = editPartnerFormOf(partner);
    expect(values).toMatchObject({ organizationName: 'Mama Put Kitchen', minSpendToQualify: '10000' });
    expect(values.coverImage).toBeNull();
    expect(values.extendedServiceIds).toEqual([2, 3]);
  });

  it('lets every field be empty, but what is filled must be valid', () => {
    const blank = {
      ...editPartnerFormOf(partner),
      firstName: '',
      address: '',
      phone: '',
      minSpendToQualify: '',
    };
    expect(messagesOf(blank, schema)).toEqual({});
    expect(messagesOf({ ...blank, phone: '12' }, schema)).toEqual({
      phone: 'Phone number cannot be less than 7 digits',
    });
    expect(messagesOf({ ...blank, minSpendToQualify: '500' }, schema)).toEqual({
      minSpendToQualify: 'Minimum spend to qualify must be at least ₦2,000',
    });
    expect(
      messagesOf({ ...blank, coverImage: new File(['x'], 'a.gif', { type: 'image/gif' }) }, schema),
    ).toEqual({
      coverImage: 'Cover image must be an image file',
    });
    expect(messagesOf({ ...blank, extendedServiceIds: [] }, schema)).toEqual({
      extendedServiceIds: 'You must select at least one extended service',
    });
  });

  it('sends only the fields that changed', async () => {
    const unchanged = await toPartnerUpdate(editPartnerFormOf(partner), partner, readImage);
    expect(unchanged).toEqual({ partnerId: 5 });
    expect(hasPartnerChanges(unchanged)).toBe(false);

    const changed = await toPartnerUpdate(
      {
        ...editPartnerFormOf(partner),
        organizationName: 'Mama Put Kitchen & Bar',
        extendedServiceIds: [3, 2],
      },
      partner,
      readImage,
    );
    // Service order does not count as a change.
    expect(changed).toEqual({ partnerId: 5, organizationName: 'Mama Put Kitchen & Bar' });
    expect(hasPartnerChanges(changed)).toBe(true);
  });

  it('sends the minimum spend only when filled, and the cover image only when one was chosen', async () => {
    const emptied = await toPartnerUpdate(
      { ...editPartnerFormOf(partner), minSpendToQualify: '  ', firstName: '' },
      partner,
      readImage,
    );
    expect(emptied).toEqual({ partnerId: 5 });

    const filled = await toPartnerUpdate(
      { ...editPartnerFormOf(partner), minSpendToQualify: '15000', coverImage: png('new.png') },
      partner,
      readImage,
    );
    expect(filled).toEqual({ partnerId: 5, minSpendToQualify: 15000, coverImage: 'base64-of-new.png' });
  });
});
