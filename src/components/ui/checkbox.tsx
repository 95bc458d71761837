import { type ComponentProps, useEffect, useRef } from 'react';
import { css, cx } from '../../../styled-system/css';

export type CheckboxProps = Omit<ComponentProps<'input'>, 'type' | 'children'> & {
  label: string;
  /** Some but not all of a group are ticked. */
  indeterminate?: boolean;
  /** Accessible name when it should differ from the visible label. */
  ariaLabel?: string;
};

const labelClass = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  fontSize: 'sm',
  color: 'fg.default',
  cursor: 'pointer',
  userSelect: 'none',
});

const inputClass = css({
  w: '4',
  h: '4',
  accentColor: 'brand.700',
  cursor: 'pointer',
  _focusVisible: { outline: '2px solid', outlineColor: 'border.focus', outlineOffset: '2px' },
});

/** A labelled native checkbox (a real input: role checkbox, Space toggles, forms read it). */
export function Checkbox({ label, indeterminate = false, ariaLabel, className, ...input }: CheckboxProps) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <label className={cx(labelClass, className)}>
      <input ref={ref} type="checkbox" className={inputClass} aria-label={ariaLabel} {...input} />
      <span>{label}</span>
    </label>
  );
}
