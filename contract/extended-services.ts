import { z } from 'zod';
import { idField } from './ids';
import { listQuerySchema } from './list';

export const extendedServiceMessages = {
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
} as const;

export const extendedServiceSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  createdAt: z.string(),
  /** The version an edit names in If-Match (contract/concurrency.ts); always sent by the server. */
  updatedAt: z.string().optional(),
  /** Partners offering it. */
  partnerCount: z.number().int(),
});
export type ExtendedService = z.infer<typeof extendedServiceSchema>;

export const extendedServiceSortKeys = ['title', 'createdAt'] as const;
export const extendedServiceListQuerySchema = listQuerySchema.extend({
  sortBy: z.enum(extendedServiceSortKeys).optional(),
});

const title = z
  .string({ error: extendedServiceMessages.titleRequired })
  .trim()
  .max(120, { error: 'Title must be at most 120 characters' });
const description = z
  .string({ error: extendedServiceMessages.descriptionRequired })
  .trim()
  .max(2000, { error: 'Description must be at most 2000 characters' });

/** POST /admin/partners/extended-services: title and description required. */
export const createExtendedServiceBodySchema = z.object({
  title: title.min(1, { error: extendedServiceMessages.titleRequired }),
  description: description.min(1, { error: extendedServiceMessages.descriptionRequired }),
});
export type CreateExtendedServiceBody = z.infer<typeof createExtendedServiceBodySchema>;

/** PATCH /admin/partners/extended-services: all optional; only the fields sent change. */
export const updateExtendedServiceBodySchema = z.object({
  extendedServiceId: idField('extendedServiceId'),
  title: title.min(1, { error: extendedServiceMessages.titleRequired }).optional(),
  description: description.min(1, { error: extendedServiceMessages.descriptionRequired }).optional(),
});
export type UpdateExtendedServiceBody = z.infer<typeof updateExtendedServiceBodySchema>;

export const extendedServiceIdParamSchema = z.object({ extendedServiceId: idField('extendedServiceId') });

/** Server answers of the extended-service calls, word for word. */
export const extendedServiceServerMessages = {
  notFound: 'Extended service not found',
  created: 'Extended service added successfully',
  updated: 'Record updated successfully',
  deleted: 'Extended service deleted successfully',
} as const;
