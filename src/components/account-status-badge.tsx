import type { AccountStatus } from '../../contract/list';
import { Badge } from './ui/badge';

/** ACTIVE → 'Active', BLOCKED → 'Blocked' (partners and clients). */
export function AccountStatusBadge({ status }: { status: AccountStatus }) {
  return (
    <Badge tone={status === 'ACTIVE' ? 'success' : 'danger'}>
      {status === 'ACTIVE' ? 'Active' : 'Blocked'}
    </Badge>
  );
}
