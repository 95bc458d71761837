import { useForm } from '@tanstack/react-form';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { type LoginBody, loginBodySchema } from '../../contract/auth';
import { css } from '../../styled-system/css';
import { fieldProps, validateOnChangeAndBlur } from '../lib/form';
import { AppForm } from './app-form';
import { Button } from './ui/button';
import { TextField } from './ui/field';
import { PasswordField } from './ui/password-input';

export interface SignInFormProps {
  onSubmit: (credentials: LoginBody) => void;
  /** True while the sign-in call runs: the button becomes a spinner. */
  submitting: boolean;
  /** Rendered below the button (the forgot-password link); optional so the form renders without a router. */
  footer?: React.ReactNode;
}

const defaultValues: LoginBody = { email: '', password: '' };

/**
 * SPEC section 2 resets the form after submit; issue 22 keeps the email (only the password is
 * cleared) and, when the call ends without leaving the screen (a refusal), puts focus on the
 * password to try again.
 */
export function SignInForm({ onSubmit, submitting, footer }: SignInFormProps) {
  const password = useRef<HTMLInputElement>(null);
  const wasSubmitting = useRef(submitting);
  useEffect(() => {
    if (wasSubmitting.current && !submitting) password.current?.focus();
    wasSubmitting.current = submitting;
  }, [submitting]);
  const form = useForm({
    defaultValues,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: loginBodySchema },
    onSubmit: ({ value, formApi }) => {
      const credentials = loginBodySchema.parse(value);
      onSubmit(credentials);
      formApi.reset({ email: credentials.email, password: '' }, { keepDefaultValues: true });
    },
  });

  return (
    <AppForm
      form={form}
      busy={submitting}
      aria-label="Sign in"
      className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
    >
      <form.Field name="email">
        {(field) => (
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            placeholder="Enter your email"
            {...fieldProps(field)}
          />
        )}
      </form.Field>
      <form.Field name="password">
        {(field) => (
          <PasswordField
            ref={password}
            label="Password"
            autoComplete="current-password"
            placeholder="Enter your password"
            {...fieldProps(field)}
          />
        )}
      </form.Field>
      <div className={css({ display: 'flex', justifyContent: 'center', minH: '11', alignItems: 'center' })}>
        <Button type="submit" size="lg" fullWidth loading={submitting} loadingText="Signing in">
          Sign in
        </Button>
      </div>
      {footer}
    </AppForm>
  );
}

/** The forgot-password link's look, shared with the prerendered sign-in screen (src/prerender). */
export const forgotPasswordLinkClass = css({
  alignSelf: 'center',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'brand.700',
  _hover: { textDecoration: 'underline' },
});

export function ForgotPasswordLink() {
  return (
    <Link to="/forgot-password" className={forgotPasswordLinkClass}>
      Forgot password?
    </Link>
  );
}
