import { createFileRoute } from '@tanstack/react-router';
import { SectionPlaceholder } from '../-components/section-placeholder';

export const Route = createFileRoute('/dashboard/clients/')({
  component: () => <SectionPlaceholder title="Clients / Manage Customers" />,
});
