import { useForm } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { passwordResetRequestBodySchema } from '../../../contract/auth';
import { css } from '../../../styled-system/css';
import { requestPasswordReset } from '../../api/auth';
import { AppForm } from '../../components/app-form';
import { AuthShell } from '../../components/auth-shell';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { notify } from '../../components/ui/notify';
import { authErrorMessage } from '../../lib/error-message';
import { fieldProps, validateOnChangeAndBlur } from '../../lib/form';

const linkClass = css({
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'brand.700',
  _hover: { textDecoration: 'underline' },
});

export function ForgotPasswordScreen() {
  const request = useMutation({
    mutationFn: (email: string) => requestPasswordReset(email),
    onError: (error) => notify.error(authErrorMessage(error)),
  });
  const form = useForm({
    defaultValues: { email: '' },
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: passwordResetRequestBodySchema },
    onSubmit: ({ value }) => request.mutateAsync(passwordResetRequestBodySchema.parse(value).email),
  });

  return (
    <AuthShell heading="Forgot your password?">
      <AppForm
        form={form}
        aria-label="Request a reset code"
        className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
      >
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Enter the email of your admin account and we will send you a reset code.
        </p>
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
        {request.isSuccess ? (
          <p
            role="status"
            className={css({
              fontSize: 'sm',
              color: 'brand.800',
              bg: 'brand.50',
              borderRadius: 'md',
              px: '3',
              py: '2',
            })}
          >
            {request.data}
          </p>
        ) : null}
        <div className={css({ display: 'flex', justifyContent: 'center', minH: '11', alignItems: 'center' })}>
          <Button
            type="submit"
            size="lg"
            fullWidth
            loading={request.isPending}
            loadingText="Sending reset code"
          >
            Send reset code
          </Button>
        </div>
        <div className={css({ display: 'flex', justifyContent: 'space-between' })}>
          <Link to="/" className={linkClass}>
            Back to sign in
          </Link>
          <Link to="/reset-password" className={linkClass}>
            I have a reset code
          </Link>
        </div>
      </AppForm>
    </AuthShell>
  );
}
