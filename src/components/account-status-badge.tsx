import type { AccountStatus } from '../../contract/list';
import { cva } from '../../styled-system/css';

const badge = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    px: '2',
    py: '0.5',
    borderRadius: 'full',
    fontSize: 'xs',
    fontWeight: 'semibold',
    whiteSpace: 'nowrap',
  },
  variants: {
    tone: {
      ACTIVE: { bg: 'emerald.50', color: 'emerald.700' },
      BLOCKED: { bg: 'red.50', color: 'red.700' },
    },
  },
});

/** ACTIVE → 'Active', BLOCKED → 'Blocked' (partners and clients). */
export function AccountStatusBadge({ status }: { status: AccountStatus }) {
  return <span className={badge({ tone: status })}>{status === 'ACTIVE' ? 'Active' : 'Blocked'}</span>;
}
