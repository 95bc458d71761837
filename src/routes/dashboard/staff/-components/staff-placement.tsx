import { useQuery } from '@tanstack/react-query';
import { partnerChoicesQueryOptions } from '../../../../api/partners';
import { profileQueryOptions } from '../../../../api/profile';
import { roleChoicesQueryOptions } from '../../../../api/roles';
import { SelectField } from '../../../../components/ui/select';
import { queryErrorMessage } from '../../../../lib/error-message';
import { grantable, type Placement, placementFor } from '../../../../lib/staff-form';
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

type PartnerFieldProps = {
  placement: Placement;
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: string | undefined;
  /** The member's partner now (edit form): choosable even when not among the active ones. */
  current?: { value: string; label: string } | undefined;
};

/** 'Partner': a select of the active partners for a partner role; partner staff see their own, fixed. */
export function PartnerField(props: PartnerFieldProps) {
  if (props.placement === 'none') return null;
  return props.placement === 'fixed' ? <OwnPartner name={props.name} /> : <PartnerSelect {...props} />;
}

function PartnerSelect({ name, value, onChange, onBlur, error, current }: PartnerFieldProps) {
  const partners = useQuery(partnerChoicesQueryOptions());
  const options = partners.data ?? [];
  return (
    <SelectField
      label="Partner"
      name={name}
      placeholder="Choose a partner"
      options={current && !options.some((o) => o.value === current.value) ? [...options, current] : options}
      value={value}
      onChange={(e) => onChange(e.target.value)}
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
