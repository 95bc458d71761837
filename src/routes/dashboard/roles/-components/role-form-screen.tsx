import { useForm } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Permission } from '../../../../../contract/permissions';
import type { Role } from '../../../../../contract/roles';
import { css } from '../../../../../styled-system/css';
import {
  createRole,
  permissionsQueryOptions,
  roleDetailQueryOptions,
  roleKeys,
  updateRole,
} from '../../../../api/roles';
import { AppForm } from '../../../../components/app-form';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { FormCard, formActions } from '../../../../components/form-card';
import { LogoSpinner } from '../../../../components/logo-spinner';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueryErrorText } from '../../../../components/query-error-text';
import { Button } from '../../../../components/ui/button';
import { Checkbox } from '../../../../components/ui/checkbox';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { fieldProps, firstError, validateOnChangeAndBlur } from '../../../../lib/form';
import {
  groupPermissions,
  PARTNER_ROLE_LABEL,
  type RoleForm,
  roleFormSchema,
  togglePermissions,
  unmetNeedsNote,
} from '../../../../lib/role-form';

export const ROLE_CREATED = 'Role created successfully';
export const ROLE_UPDATED = 'Role updated successfully';
export const BUILT_IN_NOTICE = 'The built-in Super Admin role holds every permission and cannot be changed.';

/** /dashboard/roles/add ('Create Admin Role') and /dashboard/roles/{id}/edit ('Edit Admin Role'). */
export function RoleFormScreen({ roleId }: { roleId?: number }) {
  const navigate = useNavigate();
  const permissions = useQuery(permissionsQueryOptions());
  const role = useQuery({ ...roleDetailQueryOptions(roleId ?? 0), enabled: roleId !== undefined });
  const title = roleId === undefined ? 'Create Admin Role' : 'Edit Admin Role';
  const back = () => void navigate({ to: '/dashboard/staff', search: { activeTab: 'roles' } });
  const error = permissions.error ?? (roleId !== undefined ? role.error : null);
  const loading = permissions.isPending || (roleId !== undefined && role.isPending);

  return (
    <PageBody>
      <PageHeader
        title={title}
        actions={
          <Button variant="outline" onClick={back}>
            Back
          </Button>
        }
      />
      {isForbidden(error) ? (
        <ForbiddenState />
      ) : error ? (
        <QueryErrorText error={error} />
      ) : loading || !permissions.data ? (
        <LogoSpinner label="Loading permissions" />
      ) : (
        <RoleFormCard
          key={role.data?.id ?? 'new'}
          permissions={permissions.data}
          role={roleId !== undefined ? role.data : undefined}
          onDone={back}
        />
      )}
    </PageBody>
  );
}

function RoleFormCard({
  permissions,
  role,
  onDone,
}: {
  permissions: Permission[];
  role: Role | undefined;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const groups = groupPermissions(permissions);
  const readOnly = role?.builtIn === true;
  /** What a tick or untick also changed, and why (a permission needs another). */
  const [note, setNote] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (values: RoleForm) => {
      const body = {
        roleName: values.roleName.trim(),
        permissionIds: values.permissionIds,
        partnerRole: values.partnerRole,
      };
      return role ? updateRole({ roleId: role.id, ...body }) : createRole(body);
    },
    onSuccess: () => {
      notify.success(role ? ROLE_UPDATED : ROLE_CREATED);
      void queryClient.invalidateQueries({ queryKey: roleKeys.all });
      onDone();
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const defaultValues: RoleForm = {
    roleName: role?.name ?? '',
    permissionIds: role ? [...role.permissionIds].sort((a, b) => a - b) : [],
    partnerRole: role?.partnerRole ?? false,
  };
  const form = useForm({
    defaultValues,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: roleFormSchema },
    onSubmit: ({ value }) => (readOnly ? undefined : save.mutateAsync(value)),
  });

  return (
    <FormCard label={role ? 'Edit role' : 'Create role'}>
      {readOnly ? (
        <p
          role="note"
          className={css({
            mb: '4',
            fontSize: 'sm',
            color: 'brand.800',
            bg: 'brand.50',
            p: '3',
            borderRadius: 'md',
          })}
        >
          {BUILT_IN_NOTICE}
        </p>
      ) : null}
      <AppForm form={form} busy={readOnly}>
        <form.Field name="roleName">
          {(field) => (
            <TextField label="Role Name" autoComplete="off" disabled={readOnly} {...fieldProps(field)} />
          )}
        </form.Field>
        <form.Field name="partnerRole">
          {(field) => (
            <Checkbox
              label={PARTNER_ROLE_LABEL}
              name={field.name}
              disabled={readOnly}
              checked={field.state.value}
              onChange={(e) => field.handleChange(e.target.checked)}
              onBlur={field.handleBlur}
              className={css({ mt: '4' })}
            />
          )}
        </form.Field>
        <form.Field name="permissionIds">
          {(field) => {
            const selected = field.state.value;
            const error = firstError(field.state.meta);
            const toggle = (ids: number[], on: boolean) => {
              const next = togglePermissions(permissions, selected, ids, on);
              setNote(next.note);
              field.handleChange(next.ids);
            };
            const unmet = readOnly ? null : unmetNeedsNote(permissions, selected);
            return (
              <fieldset
                aria-describedby={error ? 'permissions-error' : undefined}
                className={css({ mt: '6', border: 'none', p: '0', m: '0' })}
              >
                <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '3', mt: '6' })}>
                  Permissions
                </legend>
                <div
                  className={css({
                    display: 'grid',
                    gap: '4',
                    gridTemplateColumns: { base: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' },
                  })}
                >
                  {groups.map((group) => {
                    const ticked = group.permissions.filter((p) => selected.includes(p.id)).length;
                    return (
                      <fieldset
                        key={group.group}
                        className={css({
                          layerStyle: 'outlined',
                          borderRadius: 'lg',
                          p: '4',
                          display: 'flex',
                          flexDirection: 'column',
                          gap: '2',
                        })}
                      >
                        <legend className={css({ px: '1', fontWeight: 'semibold', fontSize: 'sm' })}>
                          {group.label}
                        </legend>
                        <Checkbox
                          label="Select all"
                          ariaLabel={`Select all ${group.label}`}
                          disabled={readOnly}
                          checked={ticked === group.permissions.length}
                          indeterminate={ticked > 0 && ticked < group.permissions.length}
                          onChange={(e) =>
                            toggle(
                              group.permissions.map((p) => p.id),
                              e.target.checked,
                            )
                          }
                          onBlur={field.handleBlur}
                          className={css({
                            color: 'fg.muted',
                            pb: '1',
                            borderBottomWidth: '1px',
                            borderColor: 'border.default',
                          })}
                        />
                        {group.permissions.map((p) => (
                          <Checkbox
                            key={p.id}
                            label={p.action}
                            name="permissionIds"
                            value={String(p.id)}
                            disabled={readOnly}
                            checked={selected.includes(p.id)}
                            onChange={(e) => toggle([p.id], e.target.checked)}
                            onBlur={field.handleBlur}
                          />
                        ))}
                      </fieldset>
                    );
                  })}
                </div>
                <p role="status" className={css({ mt: '3', fontSize: 'sm', color: 'fg.muted' })}>
                  {note}
                </p>
                {unmet ? (
                  <p role="note" className={css({ mt: '2', fontSize: 'sm', color: 'red.700' })}>
                    {unmet}
                  </p>
                ) : null}
                {error ? (
                  <p id="permissions-error" className={css({ mt: '2', fontSize: 'xs', color: 'fg.error' })}>
                    {error}
                  </p>
                ) : null}
              </fieldset>
            );
          }}
        </form.Field>
        {readOnly ? null : (
          <div className={formActions}>
            <Button type="submit" loading={save.isPending} loadingText="Saving role">
              Submit
            </Button>
          </div>
        )}
      </AppForm>
    </FormCard>
  );
}
