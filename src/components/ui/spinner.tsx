import { cx } from '../../../styled-system/css';
import { type SpinnerVariantProps, spinner } from '../../../styled-system/recipes';

export type SpinnerProps = SpinnerVariantProps & { label?: string; className?: string };

/** A busy indicator announced to assistive technology by its label. */
export function Spinner({ label = 'Loading', size, className }: SpinnerProps) {
  return <span role="status" aria-label={label} className={cx(spinner({ size }), className)} />;
}
