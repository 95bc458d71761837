import { Field } from '@ark-ui/react/field';
import type { ComponentProps } from 'react';
import { css, cx } from '../../../styled-system/css';
import { field } from '../../../styled-system/recipes';
import { useFieldDescription } from './field';

export interface SelectOption {
  value: string;
  label: string;
}

export type SelectFieldProps = Omit<ComponentProps<'select'>, 'children'> & {
  label: string;
  options: readonly SelectOption[];
  /** A first, empty choice such as 'Choose a role'. */
  placeholder?: string;
  error?: string | undefined;
  /** Keep the label for assistive technology only. */
  hideLabel?: boolean;
};

const selectClass = css({
  appearance: 'none',
  pr: '9',
  cursor: 'pointer',
  bgImage:
    "url(\"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16' viewBox='0 0 24 24' fill='none' stroke='%2364748b' stroke-width='2'><path d='m6 9 6 6 6-6'/></svg>\")",
  bgRepeat: 'no-repeat',
  bgPosition: 'right 0.75rem center',
});

const srOnly = css({ srOnly: true });

/** A labelled native select (keyboard and screen-reader friendly): Ark Field parts and the field recipe. */
export function SelectField({
  label,
  options,
  placeholder,
  error,
  hideLabel,
  className,
  ...select
}: SelectFieldProps) {
  const classes = field();
  const { ids, describedBy } = useFieldDescription(error);
  return (
    <Field.Root invalid={Boolean(error)} ids={ids} className={classes.root}>
      <Field.Label className={hideLabel ? srOnly : classes.label}>{label}</Field.Label>
      <Field.Select
        className={cx(classes.input, selectClass, className)}
        aria-describedby={describedBy}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Field.Select>
      <Field.ErrorText className={classes.errorText}>{error}</Field.ErrorText>
    </Field.Root>
  );
}
