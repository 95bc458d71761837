import { createFileRoute } from '@tanstack/react-router';
import { clubKeysQueryOptions } from '../../../api/club-keys';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { ClubKeysScreen } from './-components/club-keys-screen';

export const Route = createFileRoute('/dashboard/club-keys/')({
  beforeLoad: screenGuard('/dashboard/club-keys/'),
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(clubKeysQueryOptions());
  },
  errorComponent: RouteErrorState,
  component: ClubKeysScreen,
});
