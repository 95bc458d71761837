import { listSearchSchema } from '../../../../../contract/list';
import { listSearchDefaults } from '../../../../lib/list-search';

/** /dashboard/campaigns?page=&pageSize=: newest first (the server's one order), paged like the other lists. */
export const campaignSearchSchema = listSearchSchema({ sortKeys: ['createdAt'] });
export const CAMPAIGN_SEARCH_DEFAULTS = listSearchDefaults(campaignSearchSchema);
