import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/not-found')({
  component: NotFoundScreen,
});

function NotFoundScreen() {
  return <div>NotFoundScreen</div>;
}
