import { CAMPAIGN_STATES } from '../../../../../contract/campaigns';
import { listSearchSchema } from '../../../../../contract/list';
import { z } from '../../../../../contract/zod';
import { listSearchDefaults } from '../../../../lib/list-search';

/**
 * /dashboard/campaigns?state=&page=&pageSize=: newest first (the server's one order), paged like the
 * other lists, optionally of one state (an unknown state in the URL shows every campaign).
 */
export const campaignSearchSchema = z.extend(listSearchSchema({ sortKeys: ['createdAt'] }), {
  state: z.catch(z.optional(z.enum(CAMPAIGN_STATES)), undefined),
});
export const CAMPAIGN_SEARCH_DEFAULTS = listSearchDefaults(campaignSearchSchema);
