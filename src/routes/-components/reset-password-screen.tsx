import { useForm } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { css } from '../../../styled-system/css';
import { updatePasswordWithCode } from '../../api/auth';
import { AuthShell } from '../../components/auth-shell';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { notify } from '../../components/ui/notify';
import { PasswordField } from '../../components/ui/password-input';
import { authErrorMessage } from '../../lib/error-message';
import { firstError, validateOnChangeAndBlur } from '../../lib/form';
import { type ResetPasswordForm, resetPasswordFormSchema } from '../../lib/reset-password-form';

export function ResetPasswordScreen({
  initialCode,
  notice,
}: {
  initialCode: string;
  notice?: string | undefined;
}) {
  const navigate = useNavigate();
  const update = useMutation({
    mutationFn: updatePasswordWithCode,
    onSuccess: (message) => {
      notify.success(message || 'Password updated successfully');
      void navigate({ to: '/' });
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
      update.mutate({ resetCode, newPassword });
    },
  });

  return (
    <AuthShell heading="Reset your password">
      {notice ? (
        <p role="note" className={css({ mb: '4', fontSize: 'sm', color: 'fg.muted' })}>
          {notice}
        </p>
      ) : null}
      <form
        noValidate
        aria-label="Reset password"
        className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
        onSubmit={(event) => {
          event.preventDefault();
          void form.handleSubmit();
        }}
      >
        <form.Field name="resetCode">
          {(field) => (
            <TextField
              label="Reset Code"
              name={field.name}
              autoComplete="one-time-code"
              placeholder="Enter the code from your email"
              value={field.state.value}
              onChange={(e) => field.handleChange(e.target.value)}
              onBlur={field.handleBlur}
              error={firstError(field.state.meta)}
            />
          )}
        </form.Field>
        <form.Field name="newPassword">
          {(field) => (
            <PasswordField
              label="New Password"
              name={field.name}
              autoComplete="new-password"
              placeholder="Enter a new password"
              value={field.state.value}
              onChange={(e) => field.handleChange(e.target.value)}
              onBlur={field.handleBlur}
              error={firstError(field.state.meta)}
            />
          )}
        </form.Field>
        <form.Field name="confirmPassword">
          {(field) => (
            <PasswordField
              label="Confirm Password"
              name={field.name}
              autoComplete="new-password"
              placeholder="Confirm the new password"
              value={field.state.value}
              onChange={(e) => field.handleChange(e.target.value)}
              onBlur={field.handleBlur}
              error={firstError(field.state.meta)}
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
      </form>
    </AuthShell>
  );
}
