import { createFileRoute } from '@tanstack/react-router';
import { z } from '../../contract/zod';
import { ResetPasswordScreen } from './-components/reset-password-screen';

export const Route = createFileRoute('/reset-password')({
  validateSearch: z.object({ code: z.optional(z.string().check(z.maxLength(64))) }),
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { code } = Route.useSearch();
  return <ResetPasswordScreen initialCode={code ?? ''} />;
}
