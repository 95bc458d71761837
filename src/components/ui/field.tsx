import { Field } from '@ark-ui/react/field';
import type { ComponentProps, ReactNode } from 'react';
import { cx } from '../../../styled-system/css';
import { field } from '../../../styled-system/recipes';

export type TextFieldProps = Omit<ComponentProps<'input'>, 'children'> & {
  label: string;
  /** Shown under the input (and the border turns red) when set. */
  error?: string | undefined;
  helperText?: ReactNode;
  multiline?: boolean;
};

/** A labelled input: Ark Field parts joined to the `field` slot recipe. */
export function TextField({ label, error, helperText, multiline, className, ...input }: TextFieldProps) {
  const classes = field();
  return (
    <Field.Root invalid={Boolean(error)} className={classes.root}>
      <Field.Label className={classes.label}>{label}</Field.Label>
      {multiline ? (
        <Field.Textarea
          className={cx(classes.textarea, className)}
          {...(input as ComponentProps<'textarea'>)}
        />
      ) : (
        <Field.Input className={cx(classes.input, className)} {...input} />
      )}
      {helperText && !error ? (
        <Field.HelperText className={classes.helperText}>{helperText}</Field.HelperText>
      ) : null}
      <Field.ErrorText className={classes.errorText}>{error}</Field.ErrorText>
    </Field.Root>
  );
}
