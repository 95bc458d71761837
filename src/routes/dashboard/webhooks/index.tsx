import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { webhookDeliveriesQueryOptions, webhookListQueryOptions } from '../../../api/webhooks';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { WEBHOOK_SEARCH_DEFAULTS, webhookSearchSchema } from './-components/webhook-search';
import { WebhooksScreen } from './-components/webhooks-screen';

export const Route = createFileRoute('/dashboard/webhooks/')({
  validateSearch: webhookSearchSchema,
  search: { middlewares: [stripSearchParams(WEBHOOK_SEARCH_DEFAULTS)] },
  beforeLoad: screenGuard('/dashboard/webhooks/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(webhookListQueryOptions(deps.page, deps.pageSize));
    if (deps.webhook)
      void queryClient.prefetchQuery(webhookDeliveriesQueryOptions(deps.webhook, deps.deliveryPage));
  },
  errorComponent: RouteErrorState,
  component: WebhooksScreen,
});
