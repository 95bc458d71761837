import { createFileRoute, redirect } from '@tanstack/react-router';

/** Catch-all: any path no other route claims redirects to /not-found. */
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: '/not-found', replace: true });
  },
});
