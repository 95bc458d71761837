import { createFileRoute } from '@tanstack/react-router';
import { z } from '../../../../contract/zod';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { ImportCustomersScreen } from './-components/import-customers-screen';

/** /dashboard/clients/import?job=: the job being applied, so its progress survives a reload. */
const importSearchSchema = z.object({
  job: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
});

export const Route = createFileRoute('/dashboard/clients/import')({
  validateSearch: importSearchSchema,
  beforeLoad: screenGuard('/dashboard/clients/import'),
  errorComponent: RouteErrorState,
  component: ImportCustomersScreen,
});
