import { createFileRoute } from '@tanstack/react-router';
import { profileQueryOptions } from '../../api/profile';
import { ProfileScreen } from './-components/profile-screen';

export const Route = createFileRoute('/dashboard/profile')({
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(profileQueryOptions());
  },
  component: ProfileScreen,
});
