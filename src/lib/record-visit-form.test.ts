import { describe, expect, it } from 'vitest';
import {
  emptyRecordVisitForm,
  NO_VISIT_CUSTOMER,
  NO_VISIT_DATE,
  type RecordVisitFormValues,
  recordVisitFormSchema,
  toVisitBody,
  visitTotal,
} from './record-visit-form';

/** Each field's first message, named as TanStack Form names the field ('items[0].price'). */
const errorsOf = (values: RecordVisitFormValues) => {
  const issues = recordVisitFormSchema.safeParse(values).error?.issues ?? [];
  const byField: Record<string, string> = {};
  for (const issue of issues) {
    const name = issue.path.reduce<string>(
      (out, part) =>
        typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part),
      '',
    );
    byField[name] ??= issue.message;
  }
  return byField;
};

const NOW = new Date('2026-03-14T10:05:00Z');
const filled: RecordVisitFormValues = {
  ...emptyRecordVisitForm('Bisi Adewale', NOW),
  customerId: 42,
  items: [
    { name: 'Pepper soup', quantity: '2', price: '1850' },
    { name: 'Zobo', quantity: '1', price: '450.50' },
  ],
};

describe('Record a visit form rules (decision 058: the contract rules, each on its field)', () => {
  it('a new form asks for the customer and the item, each under its own field', () => {
    expect(errorsOf(emptyRecordVisitForm('Bisi Adewale', NOW))).toEqual({
      customerId: NO_VISIT_CUSTOMER,
      'items[0].name': 'Item name is required',
      'items[0].price': 'Price must be a number',
    });
    expect(errorsOf(filled)).toEqual({});
  });

  it("puts each item's rule under that item's field", () => {
    const errors = errorsOf({
      ...filled,
      items: [
        { name: 'Pepper soup', quantity: '0', price: '1850' },
        { name: '  ', quantity: '1.5', price: '-3' },
        { name: 'Zobo', quantity: '1', price: '2.505' },
      ],
    });
    expect(errors).toEqual({
      'items[0].quantity': 'Quantity must be at least 1',
      'items[1].name': 'Item name is required',
      'items[1].quantity': 'Quantity must be a whole number',
      'items[1].price': 'Price must be a positive number',
      'items[2].price': 'Price can have at most 2 decimals',
    });
  });

  it('asks for the attendant and the date', () => {
    expect(errorsOf({ ...filled, attendantName: ' ', visitDate: '' })).toEqual({
      attendantName: 'Attendant name is required',
      visitDate: NO_VISIT_DATE,
    });
  });

  it('sends trimmed names, numbers, the local time as an instant, and the total is 2 × 1850 + 450.50', () => {
    const body = toVisitBody({ ...filled, attendantName: ' Bisi Adewale ' }, 7);
    expect(body).toEqual({
      partnerId: 7,
      customerId: 42,
      attendantName: 'Bisi Adewale',
      visitDate: new Date(filled.visitDate).toISOString(),
      items: [
        { name: 'Pepper soup', quantity: 2, price: 1850 },
        { name: 'Zobo', quantity: 1, price: 450.5 },
      ],
    });
    expect(visitTotal(filled.items)).toBe(4150.5);
    expect(toVisitBody({ ...filled, receiptImage: 'iVBORw0KGgo=' }, 7).receiptImage).toBe('iVBORw0KGgo=');
  });
});
