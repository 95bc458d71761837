import { userTypeSchema } from './auth';
import { listQuerySchema } from './list';
import { z } from './zod';

export const activitySchema = z.object({
  id: z.int(),
  user: z.object({
    id: z.nullable(z.int()),
    name: z.string(),
    imageUrl: z.nullable(z.string()),
    organizationName: z.nullable(z.string()),
  }),
  userType: userTypeSchema,
  action: z.string(),
  entity: z.string(),
  entityId: z.nullable(z.string()),
  ipLocation: z.nullable(z.string()),
  ipAddress: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
  createdAt: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const activitySortKeys = ['createdAt', 'action', 'name'] as const;
export const activityListQuerySchema = z.extend(listQuerySchema, {
  userType: z._default(userTypeSchema, 'PARTNER'),
  sortBy: z.optional(z.enum(activitySortKeys)),
});
