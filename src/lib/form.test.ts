import { type AnyFormApi, FieldApi, FormApi } from '@tanstack/react-form';
import { describe, expect, it } from 'vitest';
import { placeServerErrors } from './form';

/** A mounted form with these fields mounted, as the screens have them. */
function formWith(fields: string[]): AnyFormApi {
  const form = new FormApi({
    defaultValues: { email: '', extendedServiceIds: [1], items: [{ price: '1' }, { price: '2' }] },
  });
  form.mount();
  for (const name of fields) new FieldApi({ form, name: name as never }).mount();
  // The screens' forms pass as AnyFormApi through AppForm; this one's listener types are narrower.
  return form as unknown as AnyFormApi;
}

const refusal = (errors: { fieldName: string; message: string }[]) => ({
  status: 400,
  message: 'Validation failed',
  errors,
});

describe("placeServerErrors: the server's field errors on the form's fields", () => {
  it("puts an item's error on that item's field ('items.1.price' is items[1].price)", () => {
    const form = formWith(['email', 'items', 'items[0].price', 'items[1].price']);
    const placed = placeServerErrors(
      form,
      refusal([{ fieldName: 'items.1.price', message: 'Price is too large' }]),
    );
    expect(placed).toBe(1);
    expect(form.getFieldMeta('items[1].price')?.errorMap.onSubmit).toBe('Price is too large');
    expect(form.getFieldMeta('items[0].price')?.errorMap.onSubmit).toBeUndefined();
    expect(form.getFieldMeta('items')?.errorMap.onSubmit).toBeUndefined();
  });

  it('puts a list field error on the list when the form has no field per entry; skips fields it lacks', () => {
    const form = formWith(['email', 'extendedServiceIds']);
    const placed = placeServerErrors(
      form,
      refusal([
        { fieldName: 'extendedServiceIds.0', message: 'Extended service not found' },
        { fieldName: 'phone', message: 'Phone number is required' },
      ]),
    );
    expect(placed).toBe(1);
    expect(form.getFieldMeta('extendedServiceIds')?.errorMap.onSubmit).toBe('Extended service not found');
  });
});
