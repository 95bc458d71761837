import { useForm } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useRouteContext } from '@tanstack/react-router';
import { css } from '../../../styled-system/css';
import { updatePasswordWithCode } from '../../api/auth';
import { AppForm } from '../../components/app-form';
import { AuthShell } from '../../components/auth-shell';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { notify } from '../../components/ui/notify';
import { PasswordField } from '../../components/ui/password-input';
import { authErrorMessage } from '../../lib/error-message';
import { fieldProps, validateOnChangeAndBlur } from '../../lib/form';
import { type ResetPasswordForm, resetPasswordFormSchema } from '../../lib/reset-password-form';

/**
 * Set a password with a mailed code. Opened from a mail's link, the code is filled in and the email
 * is known: the new password then signs in at once (partner staff land at their partner, issue 22).
 * A link whose code could not be read shows `notice`.
 */
export function ResetPasswordScreen({
  initialCode,
  email,
  notice,
}: {
  initialCode: string;
  email?: string | undefined;
  notice?: string | undefined;
}) {
  const navigate = useNavigate();
  const { session } = useRouteContext({ from: '__root__' });
  const update = useMutation({
    mutationFn: updatePasswordWithCode,
    onSuccess: (message, { newPassword }) => {
      notify.success(message || 'Password updated successfully');
      if (email) session.send({ type: 'session.signIn', credentials: { email, password: newPassword } });
      else void navigate({ to: '/' });
    },
    onError: (error) => notify.error(authErrorMessage(error)),
  });
  const defaultValues: ResetPasswordForm = { resetCode: initialCode, newPassword: '', confirmPassword: '' };
  const form = useForm({
    defaultValues,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: resetPasswordFormSchema },
    onSubmit: ({ value }) => {
      const { resetCode, newPassword } = resetPasswordFormSchema.parse(value);
      return update.mutateAsync({ resetCode, newPassword });
    },
  });

  return (
    <AuthShell heading="Reset your password">
      {notice ? (
        <p role="note" className={css({ mb: '4', fontSize: 'sm', color: 'fg.muted' })}>
          {notice}
        </p>
      ) : null}
      <AppForm
        form={form}
        aria-label="Reset password"
        className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
      >
        <form.Field name="resetCode">
          {(field) => (
            <TextField
              label="Reset Code"
              autoComplete="one-time-code"
              placeholder="Enter the code from your email"
              {...fieldProps(field)}
            />
          )}
        </form.Field>
        <form.Field name="newPassword">
          {(field) => (
            <PasswordField
              label="New Password"
              autoComplete="new-password"
              placeholder="Enter a new password"
              {...fieldProps(field)}
            />
          )}
        </form.Field>
        <form.Field name="confirmPassword">
          {(field) => (
            <PasswordField
              label="Confirm Password"
              autoComplete="new-password"
              placeholder="Confirm the new password"
              {...fieldProps(field)}
            />
          )}
        </form.Field>
        <div className={css({ display: 'flex', justifyContent: 'center', minH: '11', alignItems: 'center' })}>
          <Button
            type="submit"
            size="lg"
            fullWidth
            loading={update.isPending}
            loadingText="Updating password"
          >
            Update password
          </Button>
        </div>
        <Link
          to="/"
          className={css({ alignSelf: 'center', fontSize: 'sm', fontWeight: 'medium', color: 'brand.700' })}
        >
          Back to sign in
        </Link>
      </AppForm>
    </AuthShell>
  );
}
