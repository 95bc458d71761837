import type { ReactNode } from 'react';
import { cva, cx } from '../../../styled-system/css';

/**
 * A small rounded label: account and staff statuses, 'Built-in' roles, a partner's extended
 * services. One shape; the tone says what kind of label it is.
 */
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
      success: { bg: 'emerald.50', color: 'emerald.700' },
      warning: { bg: 'amber.50', color: 'amber.800' },
      danger: { bg: 'red.50', color: 'red.700' },
      brand: { bg: 'brand.50', color: 'brand.800' },
    },
  },
});

export type BadgeTone = 'success' | 'warning' | 'danger' | 'brand';

export function Badge({
  tone,
  className,
  children,
}: {
  tone: BadgeTone;
  className?: string;
  children: ReactNode;
}) {
  return <span className={cx(badge({ tone }), className)}>{children}</span>;
}
