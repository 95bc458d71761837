import { createFileRoute } from '@tanstack/react-router';
import { SectionPlaceholder } from '../-components/section-placeholder';

export const Route = createFileRoute('/dashboard/extservices/')({
  component: () => <SectionPlaceholder title="Extended Services / Manage Extended Services" />,
});
