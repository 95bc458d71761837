import { useQuery } from '@tanstack/react-query';
import type { FunctionComponent, ReactNode } from 'react';
import { partnerChoicesQueryOptions } from '../../../../api/partners';
import { profileQueryOptions } from '../../../../api/profile';
import { type RoleChoice, roleChoicesQueryOptions } from '../../../../api/roles';
import { SelectField } from '../../../../components/ui/select';
import { queryErrorMessage } from '../../../../lib/error-message';
import { fieldProps } from '../../../../lib/form';
import { grantable, type Placement, placementFor, withCurrentChoice } from '../../../../lib/staff-form';
import { useOwnPartnerId, useOwnPermissions } from '../../../../lib/use-can';

/**
 * The staff forms' roles and partner (issue 22): only the roles the signed-in user may give, and
 * where a member with the chosen role works (decision 033).
 */
export function useStaffPlacement() {
  const ownPartnerId = useOwnPartnerId();
  const permissions = useOwnPermissions();
  const roles = useQuery(roleChoicesQueryOptions());
  const roleChoices = grantable(roles.data ?? [], permissions);
  const placementOf = (roleId: string): Placement =>
    placementFor(
      roles.data?.find((r) => r.value === roleId),
      ownPartnerId,
    );
  return { roles, roleChoices, placementOf };
}

/** A TanStack form field, as `form.Field` hands it to its render (what `fieldProps` reads). */
type FormField = Parameters<typeof fieldProps>[0];
type Choice = { value: string; label: string };

/** The two fields of a staff form this block draws: its `form.Field`, narrowed to them. */
type StaffPlacementForm = {
  Field: (props: {
    name: 'roleId' | 'partnerId';
    children: (field: FormField) => ReactNode;
  }) => ReturnType<FunctionComponent>;
};

/**
 * 'Role' and, after it, the 'Partner' field the chosen role asks for (decision 033): one block for
 * the invite and the edit screens. The partner field follows the role as it changes.
 */
export function RoleAndPartnerFields({
  form,
  roleChoices,
  placementOf,
  rolesError,
  current,
}: {
  form: StaffPlacementForm;
  roleChoices: readonly RoleChoice[];
  placementOf: (roleId: string) => Placement;
  /** The roles could not be loaded: said under the select while the field has no error of its own. */
  rolesError?: unknown;
  /** The member's role and partner now (edit form): choosable even when not among the choices. */
  current?: { role: Choice | undefined; partner: Choice | undefined };
}) {
  return (
    <form.Field name="roleId">
      {(role) => {
        const roleProps = fieldProps(role);
        return (
          <>
            <SelectField
              label="Role"
              placeholder="Choose a role"
              options={withCurrentChoice(roleChoices, current?.role)}
              {...roleProps}
              error={roleProps.error ?? (rolesError ? queryErrorMessage(rolesError) : undefined)}
            />
            <form.Field name="partnerId">
              {(partner) => (
                <PartnerField
                  placement={placementOf(role.state.value)}
                  current={current?.partner}
                  {...fieldProps(partner)}
                />
              )}
            </form.Field>
          </>
        );
      }}
    </form.Field>
  );
}

type PartnerFieldProps = ReturnType<typeof fieldProps> & {
  placement: Placement;
  current: Choice | undefined;
};

/** 'Partner': a select of the active partners for a partner role; partner staff see their own, fixed. */
function PartnerField(props: PartnerFieldProps) {
  if (props.placement === 'none') return null;
  return props.placement === 'fixed' ? <OwnPartner name={props.name} /> : <PartnerSelect {...props} />;
}

function PartnerSelect({ name, value, onChange, onBlur, error, current }: PartnerFieldProps) {
  const partners = useQuery(partnerChoicesQueryOptions());
  return (
    <SelectField
      label="Partner"
      placeholder="Choose a partner"
      options={withCurrentChoice(partners.data ?? [], current)}
      name={name}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      error={error ?? (partners.error ? queryErrorMessage(partners.error) : undefined)}
    />
  );
}

function OwnPartner({ name }: { name: string }) {
  const profile = useQuery(profileQueryOptions());
  const partner = profile.data?.partner;
  return (
    <SelectField
      label="Partner"
      name={name}
      disabled
      options={partner ? [{ value: String(partner.id), label: partner.organizationName }] : []}
      value={partner ? String(partner.id) : ''}
      onChange={() => undefined}
    />
  );
}
