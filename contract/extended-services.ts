import { idField } from './ids';
import { defineList } from './list';
import { z } from './zod';

export const extendedServiceMessages = {
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
} as const;

export const extendedServiceSchema = z.object({
  id: z.int(),
  title: z.string(),
  description: z.string(),
  createdAt: z.string(),
  /** The version an edit names in If-Match (contract/concurrency.ts); always sent by the server. */
  updatedAt: z.optional(z.string()),
  /** Partners offering it. */
  partnerCount: z.int(),
});
export type ExtendedService = z.infer<typeof extendedServiceSchema>;

/** GET /admin/partners/extended-services (and /export). */
export const extendedServiceList = defineList({
  sortKeys: ['title', 'createdAt'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
});
export const extendedServiceListQuerySchema = extendedServiceList.query;

const title = z
  .string({ error: extendedServiceMessages.titleRequired })
  .check(z.trim(), z.maxLength(120, { error: 'Title must be at most 120 characters' }));
const description = z
  .string({ error: extendedServiceMessages.descriptionRequired })
  .check(z.trim(), z.maxLength(2000, { error: 'Description must be at most 2000 characters' }));

/** POST /admin/partners/extended-services: title and description required. */
export const createExtendedServiceBodySchema = z.object({
  title: title.check(z.minLength(1, { error: extendedServiceMessages.titleRequired })),
  description: description.check(z.minLength(1, { error: extendedServiceMessages.descriptionRequired })),
});

/** PATCH /admin/partners/extended-services: all optional; only the fields sent change. */
export const updateExtendedServiceBodySchema = z.object({
  extendedServiceId: idField('extendedServiceId'),
  title: z.optional(title.check(z.minLength(1, { error: extendedServiceMessages.titleRequired }))),
  description: z.optional(
    description.check(z.minLength(1, { error: extendedServiceMessages.descriptionRequired })),
  ),
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
