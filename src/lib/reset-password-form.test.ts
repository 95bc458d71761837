import { describe, expect, it } from 'vitest';
import { resetPasswordFormSchema } from './reset-password-form';

describe('reset-password form', () => {
  it('reports a mismatch while the reset code is still empty', () => {
    const result = resetPasswordFormSchema.safeParse({
      resetCode: '',
      newPassword: 'Secret12',
      confirmPassword: 'x',
    });
    const messages = Object.fromEntries(
      (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]),
    );
    expect(messages).toEqual({
      resetCode: 'Reset code is required',
      confirmPassword: 'Passwords must match',
    });
  });
});
