import { createFileRoute } from '@tanstack/react-router';
import { LINK_CODE_IGNORED, resetPasswordSearch } from '../lib/reset-password-form';
import { ResetPasswordScreen } from './-components/reset-password-screen';

export const Route = createFileRoute('/reset-password')({
  validateSearch: resetPasswordSearch,
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { code, codeIgnored, email } = Route.useSearch();
  return (
    <ResetPasswordScreen
      initialCode={code ?? ''}
      email={email}
      notice={codeIgnored ? LINK_CODE_IGNORED : undefined}
    />
  );
}
