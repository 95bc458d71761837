import { useForm } from '@tanstack/react-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type Customer, customerMessages } from '../../../../../contract/customers';
import { css } from '../../../../../styled-system/css';
import { customerDetailQueryOptions, customerKeys } from '../../../../api/customers';
import { EDIT_PATHS } from '../../../../api/outbox';
import { AppForm } from '../../../../components/app-form';
import { FormCard, formActions, formGrid } from '../../../../components/form-card';
import { useEditSave } from '../../../../components/outbox-edit';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueuedEditBody } from '../../../../components/queued-edit-body';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { Spinner } from '../../../../components/ui/spinner';
import {
  customerFormOf,
  customerFormSchema,
  hasCustomerChanges,
  toCustomerUpdate,
} from '../../../../lib/customer-form';
import { fieldProps, validateOnChangeAndBlur } from '../../../../lib/form';
import { fullName } from '../../../../lib/format';

const route = getRouteApi('/dashboard/clients/$clientId/edit');

/** /dashboard/clients/{id}/edit: first name, last name, address; only non-empty changes are sent. */
export function EditCustomerScreen() {
  const { clientId: customerId } = route.useParams();
  const navigate = useNavigate();
  // Queued edits of the customer show in the form (a next edit starts from them, issue 17).
  const overlay = useQueuedOverlay('customer');
  const customer = useQuery({ ...customerDetailQueryOptions(customerId), select: overlay.select });
  const back = () => void navigate({ to: '/dashboard/clients/$clientId', params: { clientId: customerId } });
  return (
    <PageBody>
      <PageHeader
        title="Edit Client"
        {...(customer.data
          ? {
              subtitle: `${fullName(customer.data.firstName, customer.data.lastName)} · ${customer.data.email}`,
            }
          : {})}
        actions={
          <Button variant="outline" onClick={back}>
            Back
          </Button>
        }
      />
      <QueuedEditBody query={customer} overlay={overlay} loadingLabel="Loading client">
        {(record) => <EditCustomerForm customer={record} />}
      </QueuedEditBody>
    </PageBody>
  );
}

export function EditCustomerForm({ customer }: { customer: Customer }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const update = useEditSave({
    onSent: () => {
      notify.success(customerMessages.updated);
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
      void navigate({ to: '/dashboard/clients' });
    },
    // Saved on this device: the customer's page shows the edited values until they are sent.
    onQueued: () => void navigate({ to: '/dashboard/clients/$clientId', params: { clientId: customer.id } }),
  });
  const form = useForm({
    defaultValues: customerFormOf(customer),
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: customerFormSchema },
    onSubmit: ({ value }) => {
      const body = toCustomerUpdate(value, customer);
      if (!hasCustomerChanges(body)) return notify.info('No changes to save');
      return update.save({
        method: 'PATCH',
        path: EDIT_PATHS.customer,
        body,
        label: `Edit client ${fullName(customer.firstName, customer.lastName)}`,
        entity: 'customer',
        entityId: customer.id,
        baseVersion: customer.updatedAt,
      });
    },
  });
  const fields = [
    { name: 'firstName', label: 'First Name' },
    { name: 'lastName', label: 'Last Name' },
    { name: 'address', label: 'Address' },
  ] as const;

  return (
    <FormCard label="Edit client">
      <AppForm form={form}>
        <div className={formGrid}>
          {fields.map(({ name, label }) => (
            <form.Field key={name} name={name}>
              {(field) => <TextField label={label} autoComplete="off" {...fieldProps(field)} />}
            </form.Field>
          ))}
        </div>
        <div className={formActions}>
          {update.isPending ? (
            <Spinner label="Saving client" className={css({ color: 'brand.700' })} />
          ) : (
            <Button type="submit">Submit</Button>
          )}
        </div>
      </AppForm>
      {update.conflictDialog}
    </FormCard>
  );
}
