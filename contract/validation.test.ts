import { describe, expect, it } from 'vitest';
import { loginBodySchema } from './auth';
import { changePasswordFormSchema } from './profile';

const messagesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('sign-in rules (SPEC section 5)', () => {
  it('says required, then invalid, for the email; and asks for the password', () => {
    expect(messagesOf(loginBodySchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'required',
      password: 'Pls enter your password',
    });
    expect(messagesOf(loginBodySchema.safeParse({ email: 'nope', password: 'x' }))).toEqual({
      email: 'pls provide a valid email',
    });
  });
});

describe('change-password rules (SPEC section 5)', () => {
  it('reports a mismatch even while another field is still empty', () => {
    const result = changePasswordFormSchema.safeParse({
      oldPassword: '',
      newPassword: 'Secret12',
      confirmPassword: 'Secret13',
    });
    expect(messagesOf(result)).toEqual({
      oldPassword: 'Password is required',
      confirmPassword: 'Passwords must match',
    });
  });

  it('asks for the confirmation before comparing, and rejects weak passwords', () => {
    expect(
      messagesOf(
        changePasswordFormSchema.safeParse({ oldPassword: 'x', newPassword: 'abc', confirmPassword: '' }),
      ),
    ).toEqual({
      newPassword: 'Please create a secure password',
      confirmPassword: 'Confirm Password is required',
    });
  });

  it('accepts matching secure passwords', () => {
    expect(
      changePasswordFormSchema.safeParse({
        oldPassword: 'x',
        newPassword: 'Secret12',
        confirmPassword: 'Secret12',
      }).success,
    ).toBe(true);
  });
});
