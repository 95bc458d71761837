import { describe, expect, it } from 'vitest';
import { LINK_CODE_IGNORED, resetPasswordFormSchema, resetPasswordSearch } from './reset-password-form';

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

describe('the reset link (?code=)', () => {
  it('fills in a code, and ignores one that cannot be a code with a note instead of breaking', () => {
    expect(resetPasswordSearch({ code: ' ABCD2345 ' })).toEqual({ code: 'ABCD2345' });
    expect(resetPasswordSearch({ code: 12345678 })).toEqual({ code: '12345678' });
    expect(resetPasswordSearch({})).toEqual({});
    expect(resetPasswordSearch({ code: 'A'.repeat(65) })).toEqual({ codeIgnored: true });
    expect(resetPasswordSearch({ code: { a: 1 } })).toEqual({ codeIgnored: true });
    expect(LINK_CODE_IGNORED).toMatch(/Enter the code from your email/);
  });
});
