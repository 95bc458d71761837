import {
  createExtendedServiceBodySchema,
  type ExtendedService,
  type UpdateExtendedServiceBody,
} from '../../contract/extended-services';
import { z } from '../../contract/zod';

export interface ExtendedServiceFormValues {
  title: string;
  description: string;
}

export const emptyExtendedServiceForm: ExtendedServiceFormValues = { title: '', description: '' };

/** Add: title and description required (docs/product.md#validation). */
export const addExtendedServiceFormSchema = createExtendedServiceBodySchema;

/** Edit: all optional. */
export const editExtendedServiceFormSchema = z.object({
  title: z.string().check(z.maxLength(120, { error: 'Title must be at most 120 characters' })),
  description: z.string().check(z.maxLength(2000, { error: 'Description must be at most 2000 characters' })),
});

export const extendedServiceFormOf = (service: ExtendedService): ExtendedServiceFormValues => ({
  title: service.title,
  description: service.description,
});

/** extendedServiceId plus only the fields that are non-empty and differ from the record. */
export function toExtendedServiceUpdate(
  values: ExtendedServiceFormValues,
  service: ExtendedService,
): UpdateExtendedServiceBody {
  const update: UpdateExtendedServiceBody = { extendedServiceId: service.id };
  for (const key of ['title', 'description'] as const) {
    const value = values[key].trim();
    if (value && value !== service[key]) update[key] = value;
  }
  return update;
}

export const hasExtendedServiceChanges = (update: UpdateExtendedServiceBody): boolean =>
  Object.keys(update).length > 1;
