import { type CreateVisitBody, createVisitBodySchema, visitItemBodySchema } from '../../contract/visits';
import { z } from '../../contract/zod';

/**
 * Record a visit (POST /user/visits) as a TanStack form (decision 058, rule 2): the values are the
 * text as typed, the rules are the contract's (`createVisitBodySchema`), each on its own field: an
 * item's price error sits under that item's price (`items[0].price`), not in one sentence at the
 * foot of the form.
 */
export interface VisitItemValues {
  name: string;
  quantity: string;
  price: string;
}

export interface RecordVisitFormValues {
  /** The customer chosen from the search or linked by code; null until then. */
  customerId: number | null;
  attendantName: string;
  /** The browser's local date and time, as a datetime-local input holds it ('2026-03-14T10:05'). */
  visitDate: string;
  items: VisitItemValues[];
  /** The receipt photo as base64, '' when none. */
  receiptImage: string;
}

export const NO_VISIT_CUSTOMER = 'Choose the customer first.';
export const NO_VISIT_DATE = 'Visit date and time is required';

export const emptyVisitItem = (): VisitItemValues => ({ name: '', quantity: '1', price: '' });

/** The browser's local date and time as a datetime-local value ('2026-03-14T10:05'). */
export const localNow = (now = new Date()) =>
  new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

export const emptyRecordVisitForm = (attendantName: string, now = new Date()): RecordVisitFormValues => ({
  customerId: null,
  attendantName,
  visitDate: localNow(now),
  items: [emptyVisitItem()],
  receiptImage: '',
});

/** A number field's text as the number the call sends: empty is no number ('… must be a number'). */
const textToNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
const item = visitItemBodySchema.shape;
const body = createVisitBodySchema.shape;
const asNumber = (rule: typeof item.quantity | typeof item.price) =>
  z.pipe(z.pipe(z.string(), z.transform(textToNumber)), rule);

/** The form's rules: the contract's, over the text as typed. */
export const recordVisitFormSchema = z.object({
  customerId: z.number({ error: NO_VISIT_CUSTOMER }),
  attendantName: body.attendantName,
  visitDate: z.string().check(z.trim(), z.minLength(1, { error: NO_VISIT_DATE })),
  items: z
    .array(z.object({ name: item.name, quantity: asNumber(item.quantity), price: asNumber(item.price) }))
    .check(z.minLength(1, { error: 'At least one item is required' })),
  receiptImage: z.string(),
});

/** The sum the form shows under the items: what the server will compute from the same items. */
export function visitTotal(items: readonly VisitItemValues[]): number {
  return items.reduce((sum, i) => sum + (Number(i.quantity) || 0) * (Number(i.price) || 0), 0);
}

/** The call's body for valid values (the form's validator passed): trimmed names, numbers, ISO date. */
export function toVisitBody(values: RecordVisitFormValues, partnerId: number): CreateVisitBody {
  return createVisitBodySchema.parse({
    partnerId,
    customerId: values.customerId,
    attendantName: values.attendantName,
    visitDate: new Date(values.visitDate).toISOString(),
    items: values.items.map((i) => ({
      name: i.name,
      quantity: textToNumber(i.quantity),
      price: textToNumber(i.price),
    })),
    ...(values.receiptImage ? { receiptImage: values.receiptImage } : {}),
  });
}
