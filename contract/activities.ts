import { z } from 'zod';
import { userTypeSchema } from './auth';
import { listQuerySchema } from './list';

export const activitySchema = z.object({
  id: z.number().int(),
  user: z.object({
    id: z.number().int().nullable(),
    name: z.string(),
    imageUrl: z.string().nullable(),
    organizationName: z.string().nullable(),
  }),
  userType: userTypeSchema,
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  ipLocation: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const activitySortKeys = ['createdAt', 'action', 'name'] as const;
export const activityListQuerySchema = listQuerySchema.extend({
  userType: userTypeSchema.default('PARTNER'),
  sortBy: z.enum(activitySortKeys).optional(),
});
export type ActivityListQuery = z.infer<typeof activityListQuerySchema>;
