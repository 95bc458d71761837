import { css } from '../../../../../styled-system/css';
import { Badge, type BadgeTone } from '../../../../components/ui/badge';

type StaffStatus = 'Active' | 'Invited' | 'Blocked';
const TONES: Record<StaffStatus, BadgeTone> = { Active: 'success', Invited: 'warning', Blocked: 'danger' };

export function StatusBadge({ status }: { status: StaffStatus }) {
  return <Badge tone={TONES[status]}>{status}</Badge>;
}

export function BuiltInBadge() {
  return (
    <Badge tone="brand" className={css({ ml: '2' })}>
      Built-in
    </Badge>
  );
}
