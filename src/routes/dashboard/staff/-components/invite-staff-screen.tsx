import { useForm } from '@tanstack/react-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { inviteStaff, staffKeys } from '../../../../api/staff';
import { statsKeys } from '../../../../api/stats';
import { AppForm } from '../../../../components/app-form';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { FormCard, formActions, formGrid } from '../../../../components/form-card';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { fieldProps, validateOnChangeAndBlur } from '../../../../lib/form';
import {
  emptyInviteForm,
  inviteStaffFormSchema,
  toInviteBody,
  withPartnerRule,
} from '../../../../lib/staff-form';
import { TEXTS } from '../../../../lib/texts';
import { RoleAndPartnerFields, useStaffPlacement } from './staff-placement';

/** docs/product.md#states: a successful invite says 'Update successful' and returns to the Users tab. */
export const INVITE_SUCCESS = TEXTS.spec.inviteSuccess;

/** /dashboard/staff/add: invite a staff member; they set their password with a mailed code. */
export function InviteStaffScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { roles, roleChoices, placementOf } = useStaffPlacement();
  const invite = useMutation({
    mutationFn: inviteStaff,
    onSuccess: () => {
      notify.success(INVITE_SUCCESS);
      void queryClient.invalidateQueries({ queryKey: staffKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
      void navigate({ to: '/dashboard/staff', search: { activeTab: 'users' } });
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const form = useForm({
    defaultValues: emptyInviteForm,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: withPartnerRule(inviteStaffFormSchema, placementOf) },
    onSubmit: ({ value }) => invite.mutateAsync(toInviteBody(value, placementOf(value.roleId))),
  });

  if (isForbidden(roles.error)) {
    return (
      <PageBody>
        <ForbiddenState />
      </PageBody>
    );
  }

  const textFields = [
    { name: 'firstName', label: 'First Name', autoComplete: 'off' },
    { name: 'lastName', label: 'Last Name', autoComplete: 'off' },
    { name: 'email', label: 'Email', autoComplete: 'off' },
  ] as const;

  return (
    <PageBody>
      <PageHeader
        title="Add Staff"
        subtitle="Invite a staff member: they receive a code by email to set their password."
        actions={
          <Button
            variant="outline"
            onClick={() => void navigate({ to: '/dashboard/staff', search: { activeTab: 'users' } })}
          >
            Back
          </Button>
        }
      />
      <FormCard label="Invite staff">
        <AppForm form={form}>
          <div className={formGrid}>
            {textFields.map(({ name, label, autoComplete }) => (
              <form.Field key={name} name={name}>
                {(field) => (
                  <TextField
                    label={label}
                    type={name === 'email' ? 'email' : 'text'}
                    autoComplete={autoComplete}
                    {...fieldProps(field)}
                  />
                )}
              </form.Field>
            ))}
            <RoleAndPartnerFields
              form={form}
              roleChoices={roleChoices}
              placementOf={placementOf}
              rolesError={roles.error}
            />
          </div>
          <div className={formActions}>
            <Button type="submit" loading={invite.isPending} loadingText="Inviting staff">
              Submit
            </Button>
          </div>
        </AppForm>
      </FormCard>
    </PageBody>
  );
}
