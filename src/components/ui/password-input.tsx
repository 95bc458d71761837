import { Field } from '@ark-ui/react/field';
import { PasswordInput as ArkPasswordInput } from '@ark-ui/react/password-input';
import { type ComponentProps, useState } from 'react';
import { field, passwordInput } from '../../../styled-system/recipes';
import { EyeIcon, EyeOffIcon } from '../sign-in-icons';
import { useFieldDescription } from './field';

export type PasswordFieldProps = Omit<ComponentProps<'input'>, 'children' | 'type'> & {
  label: string;
  error?: string | undefined;
};

/**
 * A labelled password input with a show/hide toggle: a real button, reachable by keyboard,
 * named 'Show password' / 'Hide password'.
 */
export function PasswordField({ label, error, ...input }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const fieldClasses = field();
  const classes = passwordInput();
  const { ids, describedBy } = useFieldDescription(error);
  return (
    <Field.Root invalid={Boolean(error)} ids={ids} className={fieldClasses.root}>
      <Field.Label className={fieldClasses.label}>{label}</Field.Label>
      <ArkPasswordInput.Root
        className={classes.root}
        visible={visible}
        onVisibilityChange={(details) => setVisible(details.visible)}
        autoComplete={input.autoComplete === 'new-password' ? 'new-password' : 'current-password'}
        translations={{ visibilityTrigger: (isVisible) => (isVisible ? 'Hide password' : 'Show password') }}
      >
        <ArkPasswordInput.Control className={classes.control}>
          <ArkPasswordInput.Input
            className={classes.input}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            {...input}
          />
          <ArkPasswordInput.VisibilityTrigger
            className={classes.visibilityTrigger}
            tabIndex={0}
            onClick={(event) => {
              // Pointer presses are handled by Ark on pointerdown; this covers Enter/Space.
              if (event.detail === 0) setVisible((v) => !v);
            }}
          >
            <ArkPasswordInput.Indicator className={classes.indicator} fallback={<EyeIcon />}>
              <EyeOffIcon />
            </ArkPasswordInput.Indicator>
          </ArkPasswordInput.VisibilityTrigger>
        </ArkPasswordInput.Control>
      </ArkPasswordInput.Root>
      <Field.ErrorText className={fieldClasses.errorText}>{error}</Field.ErrorText>
    </Field.Root>
  );
}
