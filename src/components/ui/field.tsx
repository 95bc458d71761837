import { Field } from '@ark-ui/react/field';
import { type ComponentProps, type ReactNode, useId } from 'react';
import { cx } from '../../../styled-system/css';
import { field } from '../../../styled-system/recipes';

export type TextFieldProps = Omit<ComponentProps<'input'>, 'children'> & {
  label: string;
  /** Shown under the input (and the border turns red) when set. */
  error?: string | undefined;
  helperText?: ReactNode;
  multiline?: boolean;
};

/**
 * The ids of a field's helper and error texts, and the control's `aria-describedby` naming the one
 * shown (Ark gives only `aria-errormessage`; screen readers read a description more widely).
 */
export function useFieldDescription(error: string | undefined, hasHelper = false) {
  const id = useId();
  const ids = { errorText: `${id}-error`, helperText: `${id}-helper` };
  const describedBy = error ? ids.errorText : hasHelper ? ids.helperText : undefined;
  return { ids, describedBy };
}

/** A labelled input: Ark Field parts joined to the `field` slot recipe. */
export function TextField({ label, error, helperText, multiline, className, ...input }: TextFieldProps) {
  const classes = field();
  const { ids, describedBy } = useFieldDescription(error, Boolean(helperText));
  return (
    <Field.Root invalid={Boolean(error)} ids={ids} className={classes.root}>
      <Field.Label className={classes.label}>{label}</Field.Label>
      {multiline ? (
        <Field.Textarea
          className={cx(classes.textarea, className)}
          aria-describedby={describedBy}
          {...(input as ComponentProps<'textarea'>)}
        />
      ) : (
        <Field.Input className={cx(classes.input, className)} aria-describedby={describedBy} {...input} />
      )}
      {helperText && !error ? (
        <Field.HelperText className={classes.helperText}>{helperText}</Field.HelperText>
      ) : null}
      <Field.ErrorText className={classes.errorText}>{error}</Field.ErrorText>
    </Field.Root>
  );
}
