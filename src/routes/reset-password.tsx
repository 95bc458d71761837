import { createFileRoute } from '@tanstack/react-router';
import { z } from '../../contract/zod';
import { ResetPasswordScreen } from './-components/reset-password-screen';

export const Route = createFileRoute('/reset-password')({
  validateSearch: z.object({
    code: z.optional(z.string().check(z.maxLength(64))),
    /** The mails' links carry the address, so the new password signs in at once (issue 22). */
    email: z.catch(z.optional(z.email()), undefined),
  }),
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  const { code, email } = Route.useSearch();
  return <ResetPasswordScreen initialCode={code ?? ''} email={email} />;
}
