import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type AddCustomerBody, customerSyncMessages } from '../../../../../contract/customer-sync';
import { addCustomer, customerKeys } from '../../../../api/customers';
import { statsKeys } from '../../../../api/stats';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { toAddCustomerBody } from '../../../../lib/add-customer-form';
import { errorSentence } from '../../../../lib/error-message';
import { AddCustomerForm } from './add-customer-form';

/**
 * /dashboard/clients/add (customers.create, issue 27): one customer by hand, under the sync's rules.
 * Success says so and opens the new customer; a refusal is a toast and, for a field, its message
 * at the field.
 */
export function AddCustomerScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: (body: AddCustomerBody) => addCustomer(body),
    onSuccess: ({ customer }) => {
      notify.success(customerSyncMessages.added);
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
      void navigate({ to: '/dashboard/clients/$clientId', params: { clientId: customer.id } });
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  return (
    <PageBody>
      <PageHeader
        title="Add customer"
        subtitle="Customers normally arrive from the subscriber system; add one here when it cannot wait for the next sync."
        actions={
          <Button variant="outline" onClick={() => void navigate({ to: '/dashboard/clients' })}>
            Back
          </Button>
        }
      />
      <AddCustomerForm
        pending={add.isPending}
        onSubmit={(values) => add.mutateAsync(toAddCustomerBody(values))}
      />
    </PageBody>
  );
}
