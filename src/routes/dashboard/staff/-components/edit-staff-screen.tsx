import { useForm } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type StaffUser, staffServerMessages } from '../../../../../contract/staff';
import { css } from '../../../../../styled-system/css';
import { staffDetailQueryOptions, staffKeys, updateStaff } from '../../../../api/staff';
import { AppForm } from '../../../../components/app-form';
import { FormCard, formActions, formGrid } from '../../../../components/form-card';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueryBody } from '../../../../components/query-body';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { PasswordField } from '../../../../components/ui/password-input';
import { textLink } from '../../../../components/ui/text-link';
import { errorSentence } from '../../../../lib/error-message';
import { fieldProps, validateOnChangeAndBlur } from '../../../../lib/form';
import { fullName } from '../../../../lib/format';
import {
  editFormOf,
  editStaffFormSchema,
  hasChanges,
  toStaffUpdate,
  withPartnerRule,
} from '../../../../lib/staff-form';
import { useStaffActor } from '../../../../lib/use-can';
import { RoleAndPartnerFields, useStaffPlacement } from './staff-placement';

const route = getRouteApi('/dashboard/staff/$staffId/edit');

export const STAFF_UPDATED = 'Staff member updated successfully';

/**
 * /dashboard/staff/{id}/edit: Back, First Name, Last Name, Password, role, Phone; Submit. On one's own
 * record no Password: a note sends to the profile, where it changes with the current one (decision 044).
 */
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
      <QueryBody query={staff} loadingLabel="Loading staff member">
        {(member) => <EditStaffForm key={member.id} staff={member} onDone={back} />}
      </QueryBody>
    </PageBody>
  );
}

function EditStaffForm({ staff, onDone }: { staff: StaffUser; onDone: () => void }) {
  const queryClient = useQueryClient();
  const { roleChoices, placementOf } = useStaffPlacement();
  const ownRecord = useStaffActor()?.id === staff.id;
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
  // The member's role and partner now stay choosable (a role beyond the first page, an inactive partner).
  const current = {
    role: staff.userRole ? { value: String(staff.userRole.id), label: staff.userRole.name } : undefined,
    partner:
      staff.partnerId !== null
        ? { value: String(staff.partnerId), label: staff.organizationName ?? '' }
        : undefined,
  };

  return (
    <FormCard label="Edit staff">
      <AppForm form={form}>
        <div className={formGrid}>
          {(['firstName', 'lastName'] as const).map((name) => (
            <form.Field key={name} name={name}>
              {(field) => (
                <TextField label={name === 'firstName' ? 'First Name' : 'Last Name'} {...fieldProps(field)} />
              )}
            </form.Field>
          ))}
          {ownRecord ? (
            <OwnPasswordNote />
          ) : (
            <form.Field name="password">
              {(field) => (
                <PasswordField
                  label="Password"
                  autoComplete="new-password"
                  placeholder="Leave blank to keep it"
                  {...fieldProps(field)}
                />
              )}
            </form.Field>
          )}
          <RoleAndPartnerFields
            form={form}
            roleChoices={roleChoices}
            placementOf={placementOf}
            current={current}
          />
          <form.Field name="phone">
            {(field) => (
              <TextField label="Phone" type="tel" inputMode="tel" autoComplete="off" {...fieldProps(field)} />
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

/**
 * In place of Password on one's own record: the server refuses it there (the staff update asks for no
 * current password), so the note says where it changes, in the words of the server's refusal.
 */
function OwnPasswordNote() {
  return (
    <p role="note" className={css({ fontSize: 'sm', color: 'fg.muted', alignSelf: 'end' })}>
      {staffServerMessages.ownPasswordInProfile}{' '}
      <Link to="/dashboard/profile" hash="change-password-title" className={textLink}>
        Go to your profile
      </Link>
    </p>
  );
}
