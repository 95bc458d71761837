import { createFileRoute } from '@tanstack/react-router';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { AddCustomerScreen } from './-components/add-customer-screen';

export const Route = createFileRoute('/dashboard/clients/add')({
  beforeLoad: screenGuard('/dashboard/clients/add'),
  errorComponent: RouteErrorState,
  component: AddCustomerScreen,
});
