import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { authErrorMessage, errorSentence, queryErrorMessage } from './error-message';

describe('authErrorMessage (docs/product.md#errors)', () => {
  it('joins field errors as fieldName:message with commas', () => {
    const error = new ApiError(400, 'Validation failed', [
      { fieldName: 'email', message: 'required' },
      { fieldName: 'password', message: 'Pls enter your password' },
    ]);
    expect(authErrorMessage(error)).toBe('email:required,password:Pls enter your password');
  });

  it('falls back to the response message, the error text, then a fixed text', () => {
    expect(authErrorMessage(new ApiError(401, 'Invalid email or password'))).toBe(
      'Invalid email or password',
    );
    expect(authErrorMessage(new Error('boom'))).toBe('boom');
    expect(authErrorMessage(undefined)).toBe('An error occurred');
  });
});

describe('queryErrorMessage', () => {
  it('prefixes server messages and separates client errors', () => {
    expect(queryErrorMessage(new ApiError(403, 'Forbidden'))).toBe('Error: Forbidden');
    expect(queryErrorMessage(new ApiError(500, ''))).toBe('An error occurred on the server');
    expect(queryErrorMessage(new TypeError('x'))).toBe('An unexpected error occurred on the client');
  });
});

describe('errorSentence (issue 16: toasts outside auth, change-password and profile)', () => {
  it('reads the field errors as sentences, never field names', () => {
    const error = new ApiError(409, 'Validation failed', [
      { fieldName: 'email', message: 'A staff member with this email already exists' },
      { fieldName: 'phone', message: 'Phone number is required' },
    ]);
    const text = errorSentence(error);
    expect(text).toBe('A staff member with this email already exists. Phone number is required.');
    expect(text).not.toMatch(/\b(email|phone):/);
  });

  it('falls back to the response message, then a fixed text', () => {
    expect(errorSentence(new ApiError(409, 'Partner is blocked'))).toBe('Partner is blocked');
    expect(errorSentence(undefined)).toBe('An error occurred');
  });
});
