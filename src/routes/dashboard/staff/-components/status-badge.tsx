import { css, cva } from '../../../../../styled-system/css';

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
      Active: { bg: 'emerald.50', color: 'emerald.700' },
      Invited: { bg: 'amber.50', color: 'amber.800' },
      Blocked: { bg: 'red.50', color: 'red.700' },
      BuiltIn: { bg: 'brand.50', color: 'brand.800' },
    },
  },
});

export function StatusBadge({ status }: { status: 'Active' | 'Invited' | 'Blocked' }) {
  return <span className={badge({ tone: status })}>{status}</span>;
}

export function BuiltInBadge() {
  return <span className={css({ ml: '2' }, badge.raw({ tone: 'BuiltIn' }))}>Built-in</span>;
}
