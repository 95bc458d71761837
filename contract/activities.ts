import { userTypeSchema } from './auth';
import { defineList } from './list';
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

/** GET /admin/user/activities (and /export): the activity log of one user type. */
export const activityList = defineList({
  sortKeys: ['createdAt', 'action', 'name'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
  filters: { userType: z._default(userTypeSchema, 'PARTNER') },
  cursor: true,
});
export const activityListQuerySchema = activityList.query;
