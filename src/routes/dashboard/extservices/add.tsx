import { createFileRoute } from '@tanstack/react-router';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { AddExtendedServiceScreen } from './-components/extended-service-form-screens';

export const Route = createFileRoute('/dashboard/extservices/add')({
  beforeLoad: screenGuard('/dashboard/extservices/add'),
  errorComponent: RouteErrorState,
  component: AddExtendedServiceScreen,
});
