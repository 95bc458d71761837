import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ResetPasswordScreen } from './-components/reset-password-screen';

export const Route = createFileRoute('/reset-password')({
  validateSearch: z.object({ code: z.string().max(64).optional() }),
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { code } = Route.useSearch();
  return <ResetPasswordScreen initialCode={code ?? ''} />;
}
