import { useForm } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { StaffUser } from '../../../../../contract/staff';
import { css } from '../../../../../styled-system/css';
import { staffDetailQueryOptions, staffKeys, updateStaff } from '../../../../api/staff';
import { AppForm } from '../../../../components/app-form';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { FormCard, formActions, formGrid } from '../../../../components/form-card';
import { LogoSpinner } from '../../../../components/logo-spinner';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { PasswordField } from '../../../../components/ui/password-input';
import { SelectField } from '../../../../components/ui/select';
import { errorSentence, queryErrorMessage } from '../../../../lib/error-message';
import { firstError, validateOnChangeAndBlur } from '../../../../lib/form';
import { fullName } from '../../../../lib/format';
import {
  editFormOf,
  editStaffFormSchema,
  hasChanges,
  toStaffUpdate,
  withPartnerRule,
} from '../../../../lib/staff-form';
import { PartnerField, useStaffPlacement } from './staff-placement';

const route = getRouteApi('/dashboard/staff/$staffId/edit');

export const STAFF_UPDATED = 'Staff member updated successfully';

/** /dashboard/staff/{id}/edit: Back, First Name, Last Name, Password, role, Phone; Submit. */
export function EditStaffScreen() {
  const { staffId } = route.useParams();
  const navigate = useNavigate();
  const staff = useQuery(staffDetailQueryOptions(staffId));
  const back = () => void navigate({ to: '/dashboard/staff', search: { activeTab: 'users' } });

  return (
    <PageBody>
      <PageHeader
        title="Edit Staff"
        {...(staff.data
          ? { subtitle: `${fullName(staff.data.firstName, staff.data.lastName)} · ${staff.data.email}` }
          : {})}
        actions={
          <Button variant="outline" onClick={back}>
            Back
          </Button>
        }
      />
      {staff.isPending ? (
        <LogoSpinner label="Loading staff member" />
      ) : isForbidden(staff.error) ? (
        <ForbiddenState />
      ) : staff.error ? (
        <p role="alert" className={css({ color: 'red.700' })}>
          {queryErrorMessage(staff.error)}
        </p>
      ) : (
        <EditStaffForm key={staff.data.id} staff={staff.data} onDone={back} />
      )}
    </PageBody>
  );
}

function EditStaffForm({ staff, onDone }: { staff: StaffUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const { roleChoices, placementOf } = useStaffPlacement();
  const update = useMutation({
    mutationFn: updateStaff,
    onSuccess: () => {
      notify.success(STAFF_UPDATED);
      void queryClient.invalidateQueries({ queryKey: staffKeys.all });
      onDone();
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const form = useForm({
    defaultValues: editFormOf(staff),
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: withPartnerRule(editStaffFormSchema, placementOf) },
    onSubmit: ({ value }) => {
      const body = toStaffUpdate(value, staff, placementOf(value.roleId));
      if (!hasChanges(body)) {
        notify.info('No changes to save');
        return;
      }
      return update.mutateAsync(body);
    },
  });
  // The member's current role stays choosable even if it is not on the first page of roles.
  const roleOptions = [
    ...roleChoices,
    ...(staff.userRole && !roleChoices.some((r) => r.value === String(staff.userRole?.id))
      ? [{ value: String(staff.userRole.id), label: staff.userRole.name }]
      : []),
  ];

  return (
    <FormCard label="Edit staff">
      <AppForm form={form}>
        <div className={formGrid}>
          {(['firstName', 'lastName'] as const).map((name) => (
            <form.Field key={name} name={name}>
              {(field) => (
                <TextField
                  label={name === 'firstName' ? 'First Name' : 'Last Name'}
                  name={field.name}
                  value={field.state.value}
                  onChange={(e) => field.handleChange(e.target.value)}
                  onBlur={field.handleBlur}
                  error={firstError(field.state.meta)}
                />
              )}
            </form.Field>
          ))}
          <form.Field name="password">
            {(field) => (
              <PasswordField
                label="Password"
                name={field.name}
                autoComplete="new-password"
                placeholder="Leave blank to keep it"
                value={field.state.value}
                onChange={(e) => field.handleChange(e.target.value)}
                onBlur={field.handleBlur}
                error={firstError(field.state.meta)}
              />
            )}
          </form.Field>
          <form.Field name="roleId">
            {(field) => (
              <SelectField
                label="Role"
                name={field.name}
                placeholder="Choose a role"
                options={roleOptions}
                value={field.state.value}
                onChange={(e) => field.handleChange(e.target.value)}
                onBlur={field.handleBlur}
                error={firstError(field.state.meta)}
              />
            )}
          </form.Field>
          <form.Subscribe selector={(state) => state.values.roleId}>
            {(roleId) => (
              <form.Field name="partnerId">
                {(field) => (
                  <PartnerField
                    placement={placementOf(roleId)}
                    name={field.name}
                    value={field.state.value}
                    onChange={field.handleChange}
                    onBlur={field.handleBlur}
                    error={firstError(field.state.meta)}
                    current={
                      staff.partnerId !== null
                        ? { value: String(staff.partnerId), label: staff.organizationName ?? '' }
                        : undefined
                    }
                  />
                )}
              </form.Field>
            )}
          </form.Subscribe>
          <form.Field name="phone">
            {(field) => (
              <TextField
                label="Phone"
                name={field.name}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                value={field.state.value}
                onChange={(e) => field.handleChange(e.target.value)}
                onBlur={field.handleBlur}
                error={firstError(field.state.meta)}
              />
            )}
          </form.Field>
        </div>
        <div className={formActions}>
          <Button type="submit" loading={update.isPending} loadingText="Saving staff member">
            Submit
          </Button>
        </div>
      </AppForm>
    </FormCard>
  );
}
