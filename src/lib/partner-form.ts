import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from '../../contract/images';
import {
  type CreatePartnerBody,
  createPartnerBodySchema,
  MIN_SPEND_DEFAULT,
  MIN_SPEND_MINIMUM,
  type Partner,
  partnerMessages,
  type UpdatePartnerBody,
} from '../../contract/partners';
import { normalisePhone, optionalPhoneField } from '../../contract/validation';
import { z } from '../../contract/zod';
import { isImageFile } from './image-file';

/** The values of the partner forms: text as typed, the chosen cover image file, service ids. */
export interface PartnerFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  organizationName: string;
  address: string;
  coverImage: File | null;
  minSpendToQualify: string;
  extendedServiceIds: number[];
}

export const emptyPartnerForm: PartnerFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  organizationName: '',
  address: '',
  coverImage: null,
  minSpendToQualify: String(MIN_SPEND_DEFAULT),
  extendedServiceIds: [],
};

/** A chosen image file: required (add) or optional (edit); PNG, JPEG or WebP; at most 5 MiB. */
const imageFile = (required: boolean) =>
  z.custom<File | null>().check(
    z.superRefine((file, ctx) => {
      if (!file) {
        if (required) ctx.addIssue({ code: 'custom', message: partnerMessages.coverImageRequired });
        return;
      }
      if (!isImageFile(file)) ctx.addIssue({ code: 'custom', message: partnerMessages.coverImageNotImage });
      else if (file.size > MAX_IMAGE_BYTES) ctx.addIssue({ code: 'custom', message: IMAGE_TOO_LARGE });
    }),
  );

/** minSpendToQualify as typed: a number of at least 2000 (docs/product.md#validation and #constants). */
const minSpendText = (required: boolean) =>
  z.string().check(
    z.superRefine((text, ctx) => {
      const value = text.trim();
      if (!value) {
        if (required) ctx.addIssue({ code: 'custom', message: partnerMessages.minSpendRequired });
        return;
      }
      const n = Number(value);
      if (!Number.isFinite(n)) ctx.addIssue({ code: 'custom', message: partnerMessages.minSpendNumber });
      else if (n < MIN_SPEND_MINIMUM)
        ctx.addIssue({ code: 'custom', message: partnerMessages.minSpendTooLow });
    }),
  );

const body = createPartnerBodySchema.shape;

/** Partner add (docs/product.md#validation): every field required, email valid, phone 7 to 11 digits, one service. */
export const addPartnerFormSchema = z.object({
  firstName: body.firstName,
  lastName: body.lastName,
  email: body.email,
  phone: body.phone,
  organizationName: body.organizationName,
  address: body.address,
  coverImage: imageFile(true),
  minSpendToQualify: minSpendText(true),
  extendedServiceIds: body.extendedServiceIds,
});

/** Base64 of the cover image file, without the data-URL prefix. */
export type ReadImage = (file: File) => Promise<string>;

export async function toCreatePartnerBody(
  values: PartnerFormValues,
  readImage: ReadImage,
): Promise<CreatePartnerBody> {
  if (!values.coverImage) throw new Error(partnerMessages.coverImageRequired);
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    phone: normalisePhone(values.phone),
    organizationName: values.organizationName.trim(),
    address: values.address.trim(),
    coverImage: await readImage(values.coverImage),
    minSpendToQualify: Number(values.minSpendToQualify.trim()),
    extendedServiceIds: values.extendedServiceIds,
  };
}

/** Partner edit (docs/product.md#validation): all optional; what is filled must still be valid. */
export const editPartnerFormSchema = (partner: Pick<Partner, 'extendedServiceIds'>) =>
  z.object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: optionalPhoneField,
    organizationName: z.string(),
    address: z.string(),
    coverImage: imageFile(false),
    minSpendToQualify: minSpendText(false),
    // Unticking every service is not 'leaving it out': a partner keeps at least one.
    extendedServiceIds: z.array(z.number()).check(
      z.refine((ids) => ids.length > 0 || partner.extendedServiceIds.length === 0, {
        error: partnerMessages.servicesRequired,
      }),
    ),
  });

/** The edit form starts from the record; the cover image starts blank. */
export const editPartnerFormOf = (partner: Partner): PartnerFormValues => ({
  firstName: partner.firstName,
  lastName: partner.lastName,
  email: partner.email,
  phone: partner.phone,
  organizationName: partner.organizationName,
  address: partner.address,
  coverImage: null,
  minSpendToQualify: String(partner.minSpendToQualify),
  extendedServiceIds: [...partner.extendedServiceIds],
});

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length &&
  [...a].sort((x, y) => x - y).every((id, i) => id === [...b].sort((x, y) => x - y)[i]);

/**
 * The update body: partnerId plus only the fields that are non-empty and differ from the record.
 * minSpendToQualify goes only when filled; the cover image only when one was chosen.
 */
export async function toPartnerUpdate(
  values: PartnerFormValues,
  partner: Partner,
  readImage: ReadImage,
): Promise<UpdatePartnerBody> {
  const update: UpdatePartnerBody = { partnerId: partner.id };
  const text = ['firstName', 'lastName', 'organizationName', 'address', 'phone'] as const;
  for (const key of text) {
    const value = key === 'phone' ? normalisePhone(values.phone) : values[key].trim();
    if (value && value !== partner[key]) update[key] = value;
  }
  const minSpend = values.minSpendToQualify.trim();
  if (minSpend && Number(minSpend) !== partner.minSpendToQualify) update.minSpendToQualify = Number(minSpend);
  if (
    values.extendedServiceIds.length > 0 &&
    !sameIds(values.extendedServiceIds, partner.extendedServiceIds)
  ) {
    update.extendedServiceIds = values.extendedServiceIds;
  }
  if (values.coverImage) update.coverImage = await readImage(values.coverImage);
  return update;
}

export const hasPartnerChanges = (update: UpdatePartnerBody): boolean => Object.keys(update).length > 1;
