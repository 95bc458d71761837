import { createFileRoute } from '@tanstack/react-router';
import { SectionPlaceholder } from '../-components/section-placeholder';

export const Route = createFileRoute('/dashboard/activities/')({
  component: () => <SectionPlaceholder title="Activity Log / Activity Logs" />,
});
