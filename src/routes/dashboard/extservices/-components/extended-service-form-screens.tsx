import { useForm } from '@tanstack/react-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { z } from 'zod';
import { customerMessages } from '../../../../../contract/customers';
import type { ExtendedService } from '../../../../../contract/extended-services';
import { partnerMessages } from '../../../../../contract/partners';
import { css } from '../../../../../styled-system/css';
import { extendedServiceDetailQueryOptions, extendedServiceKeys } from '../../../../api/extended-services';
import { EDIT_PATHS } from '../../../../api/outbox';
import { AppForm } from '../../../../components/app-form';
import { FormCard, formActions } from '../../../../components/form-card';
import { useEditSave } from '../../../../components/outbox-edit';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueuedEditBody } from '../../../../components/queued-edit-body';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import {
  addExtendedServiceFormSchema,
  type ExtendedServiceFormValues,
  editExtendedServiceFormSchema,
  emptyExtendedServiceForm,
  extendedServiceFormOf,
  hasExtendedServiceChanges,
  toExtendedServiceUpdate,
} from '../../../../lib/extended-service-form';
import { fieldProps, validateOnChangeAndBlur } from '../../../../lib/form';

/** docs/product.md#states: adding a service says 'Partner added successfully'; editing one 'Record updated successfully'. */
export const SERVICE_ADDED = partnerMessages.added;
export const SERVICE_UPDATED = customerMessages.updated;

function BackToList() {
  const navigate = useNavigate();
  return (
    <Button variant="outline" onClick={() => void navigate({ to: '/dashboard/extservices' })}>
      Back
    </Button>
  );
}

/**
 * A service's add or edit save: sent, it says `message`, refreshes the service lists and returns to
 * the list; saved on this device, it returns to the list at once (the pending-changes bar lists an
 * added one, the list shows an edited one's new values, until they are sent).
 */
function useServiceSave(message: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toList = () => void navigate({ to: '/dashboard/extservices' });
  return useEditSave({
    onSent: () => {
      notify.success(message);
      void queryClient.invalidateQueries({ queryKey: extendedServiceKeys.all });
      toList();
    },
    onQueued: toList,
  });
}

/** /dashboard/extservices/add: title and description required. */
export function AddExtendedServiceScreen() {
  const create = useServiceSave(SERVICE_ADDED);
  return (
    <PageBody>
      <PageHeader title="Add Service" actions={<BackToList />} />
      <ExtendedServiceForm
        label="Add extended service"
        defaultValues={emptyExtendedServiceForm}
        schema={addExtendedServiceFormSchema}
        pending={create.isPending}
        onSubmit={(values) =>
          create.save({
            method: 'POST',
            path: EDIT_PATHS.extendedService,
            body: { title: values.title.trim(), description: values.description.trim() },
            label: `Add service ${values.title.trim()}`,
            entity: 'extended-service',
            entityId: null,
            baseVersion: null,
          })
        }
      />
      {create.conflictDialog}
    </PageBody>
  );
}

const editRoute = getRouteApi('/dashboard/extservices/$serviceId/edit');

/** /dashboard/extservices/{id}/edit: all optional; only changed, non-empty fields are sent. */
export function EditExtendedServiceScreen() {
  const { serviceId } = editRoute.useParams();
  const overlay = useQueuedOverlay('extended-service');
  const service = useQuery({ ...extendedServiceDetailQueryOptions(serviceId), select: overlay.select });
  return (
    <PageBody>
      <PageHeader title="Edit Service" actions={<BackToList />} />
      <QueuedEditBody query={service} overlay={overlay} loadingLabel="Loading service">
        {(record) => <EditExtendedServiceForm service={record} />}
      </QueuedEditBody>
    </PageBody>
  );
}

function EditExtendedServiceForm({ service }: { service: ExtendedService }) {
  const update = useServiceSave(SERVICE_UPDATED);
  return (
    <>
      <ExtendedServiceForm
        label="Edit extended service"
        defaultValues={extendedServiceFormOf(service)}
        schema={editExtendedServiceFormSchema}
        pending={update.isPending}
        onSubmit={(values) => {
          const body = toExtendedServiceUpdate(values, service);
          if (!hasExtendedServiceChanges(body)) return notify.info('No changes to save');
          return update.save({
            method: 'PATCH',
            path: EDIT_PATHS.extendedService,
            body,
            label: `Edit service ${service.title}`,
            entity: 'extended-service',
            entityId: service.id,
            baseVersion: service.updatedAt ?? null,
          });
        }}
      />
      {update.conflictDialog}
    </>
  );
}

function ExtendedServiceForm({
  label,
  defaultValues,
  schema,
  pending,
  onSubmit,
}: {
  label: string;
  defaultValues: ExtendedServiceFormValues;
  schema: z.core.$ZodType<unknown, ExtendedServiceFormValues>;
  pending: boolean;
  /** Returns the save's promise: the form sends once until it settles. */
  onSubmit: (values: ExtendedServiceFormValues) => Promise<unknown> | undefined;
}) {
  const form = useForm({
    defaultValues,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: schema },
    onSubmit: ({ value }) => onSubmit(value),
  });
  return (
    <FormCard label={label}>
      <AppForm form={form}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <form.Field name="title">
            {(field) => <TextField label="Title" autoComplete="off" {...fieldProps(field)} />}
          </form.Field>
          <form.Field name="description">
            {(field) => <TextField label="Description" multiline {...fieldProps(field)} />}
          </form.Field>
        </div>
        <div className={formActions}>
          <Button type="submit" loading={pending} loadingText="Saving service">
            Submit
          </Button>
        </div>
      </AppForm>
    </FormCard>
  );
}
