import { createFileRoute } from '@tanstack/react-router';
import { SectionPlaceholder } from '../-components/section-placeholder';

export const Route = createFileRoute('/dashboard/staff/')({
  component: () => <SectionPlaceholder title="Staff & Roles / Manage Staff and Roles" />,
});
