import { createFileRoute } from '@tanstack/react-router';
import { RouteErrorState } from '../../../components/forbidden-state';
import { requirePermission } from '../../../lib/use-can';
import { AddExtendedServiceScreen } from './-components/extended-service-form-screens';

export const Route = createFileRoute('/dashboard/extservices/add')({
  beforeLoad: requirePermission('extended_services.create'),
  errorComponent: RouteErrorState,
  component: AddExtendedServiceScreen,
});
