import { createFileRoute } from '@tanstack/react-router';
import { SectionPlaceholder } from '../-components/section-placeholder';

export const Route = createFileRoute('/dashboard/partners/')({
  component: () => <SectionPlaceholder title="Partners / Manage Partners" />,
});
