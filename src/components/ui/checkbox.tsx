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

/**
 * A titled group of checkboxes choosing some of `options` (a key's permissions, a webhook's events),
 * with the group's error under it.
 */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
  error,
}: {
  legend: string;
  options: readonly T[];
  value: readonly T[];
  onChange: (next: T[]) => void;
  error?: string;
}) {
  return (
    <fieldset className={css({ display: 'grid', gap: '1' })}>
      <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>{legend}</legend>
      {options.map((option) => (
        <Checkbox
          key={option}
          label={option}
          checked={value.includes(option)}
          onChange={(e) =>
            onChange(e.target.checked ? [...value, option] : value.filter((x) => x !== option))
          }
        />
      ))}
      {error ? (
        <p role="alert" className={css({ color: 'fg.error', fontSize: 'sm' })}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
