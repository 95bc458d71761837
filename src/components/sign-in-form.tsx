import { useForm } from '@tanstack/react-form';
import { Link } from '@tanstack/react-router';
import { type LoginBody, loginBodySchema } from '../../contract/auth';
import { css } from '../../styled-system/css';
import { firstError, validateOnChangeAndBlur } from '../lib/form';
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

export function SignInForm({ onSubmit, submitting, footer }: SignInFormProps) {
  const form = useForm({
    defaultValues,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: loginBodySchema },
    onSubmit: ({ value, formApi }) => {
      onSubmit(loginBodySchema.parse(value));
      formApi.reset();
    },
  });

  return (
    <form
      noValidate
      aria-label="Sign in"
      className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
    >
      <form.Field name="email">
        {(field) => (
          <TextField
            label="Email"
            name={field.name}
            type="email"
            autoComplete="username"
            placeholder="Enter your email"
            value={field.state.value}
            onChange={(e) => field.handleChange(e.target.value)}
            onBlur={field.handleBlur}
            error={firstError(field.state.meta)}
          />
        )}
      </form.Field>
      <form.Field name="password">
        {(field) => (
          <PasswordField
            label="Password"
            name={field.name}
            autoComplete="current-password"
            placeholder="Enter your password"
            value={field.state.value}
            onChange={(e) => field.handleChange(e.target.value)}
            onBlur={field.handleBlur}
            error={firstError(field.state.meta)}
          />
        )}
      </form.Field>
      <div className={css({ display: 'flex', justifyContent: 'center', minH: '11', alignItems: 'center' })}>
        <Button type="submit" size="lg" fullWidth loading={submitting} loadingText="Signing in">
          Sign in
        </Button>
      </div>
      {footer}
    </form>
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
