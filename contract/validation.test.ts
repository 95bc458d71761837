import { describe, expect, it } from 'vitest';
import { loginBodySchema } from './auth';
import { changePasswordBodySchema, changePasswordFormSchema, PASSWORD_UNCHANGED_MESSAGE } from './profile';
import {
  messages,
  normalisePhone,
  optionalPhoneField,
  PHONE_CHARACTERS_MESSAGE,
  phoneField,
} from './validation';

const messagesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('sign-in rules (docs/product.md#validation)', () => {
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

describe('change-password rules (docs/product.md#validation)', () => {
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

describe('phones as people write them (issue 22)', () => {
  it('normalises spaces, dashes, dots, brackets and a +234 prefix to the national digits', () => {
    expect(normalisePhone('0803 123 4567')).toBe('08031234567');
    expect(normalisePhone('080-1234')).toBe('0801234');
    expect(normalisePhone('(0803) 123.4567')).toBe('08031234567');
    expect(normalisePhone('+234 803 123 4567')).toBe('08031234567');
    expect(normalisePhone('+234 (0)803-123-4567')).toBe('08031234567');
  });

  it('accepts them, and says what is wrong with a wrong one (never "Invalid input")', () => {
    expect(phoneField.safeParse('+234 803 123 4567')).toEqual({ success: true, data: '08031234567' });
    expect(messagesOf(optionalPhoneField.safeParse('0803 12x 4567'))).toEqual({
      '': PHONE_CHARACTERS_MESSAGE,
    });
    expect(messagesOf(optionalPhoneField.safeParse('+44 20 7946 0958'))).toEqual({
      '': PHONE_CHARACTERS_MESSAGE,
    });
    expect(messagesOf(optionalPhoneField.safeParse('080-12'))).toEqual({ '': messages.phoneTooShort });
    expect(messagesOf(phoneField.safeParse('0803 123 4567 8'))).toEqual({ '': messages.phoneTooLong });
    expect(optionalPhoneField.safeParse('')).toEqual({ success: true, data: '' });
    expect(messagesOf(phoneField.safeParse(''))).toEqual({ '': messages.phoneTooShort });
  });
});

describe('a new password must differ from the old one (issue 22)', () => {
  it('refuses it on the new password, in the body and in the form', () => {
    expect(
      messagesOf(changePasswordBodySchema.safeParse({ oldPassword: 'Secret12', newPassword: 'Secret12' })),
    ).toEqual({ newPassword: PASSWORD_UNCHANGED_MESSAGE });
    expect(
      messagesOf(
        changePasswordFormSchema.safeParse({
          oldPassword: 'Secret12',
          newPassword: 'Secret12',
          confirmPassword: 'Secret12',
        }),
      ),
    ).toEqual({ newPassword: PASSWORD_UNCHANGED_MESSAGE });
    expect(
      changePasswordBodySchema.safeParse({ oldPassword: 'Secret12', newPassword: 'Secret13' }).success,
    ).toBe(true);
  });
});
