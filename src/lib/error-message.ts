import { ApiError } from './api-error';
import { ERROR_FALLBACK } from './error-fallback';

/**
 * docs/product.md#errors, auth, change-password and profile-update failures: the errors list joined as
 * 'fieldName:message' with commas; else the response message; else the error text; else a fallback.
 */
export function authErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.errors.length > 0) {
    return error.errors.map((e) => `${e.fieldName}:${e.message}`).join(',');
  }
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return ERROR_FALLBACK;
}

/**
 * Every other failure a person reads (issue 16): sentences, never field names (errorText, shared
 * with the flow machines). product.md's 'fieldName:message' stays for the auth, change-password and
 * profile screens (authErrorMessage).
 */
export { errorText as errorSentence };

/** docs/product.md#errors, data-query errors: 'Error: ' + server message, else a server or client fallback. */
export function queryErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return error.message;
    return error.message ? `Error: ${error.message}` : 'An error occurred on the server';
  }
  return 'An unexpected error occurred on the client';
}

/**
 * Reading a failed effect without knowing HTTP: the API layer throws errors that carry a `status`
 * (0 when no response arrived), a `message` and field `errors`. Machines only duck-type them.
 */

export interface FieldErrorLike {
  fieldName: string;
  message: string;
}

const record = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;

/** HTTP status of a failed call; 0 when no response arrived; undefined for anything else. */
export function errorStatus(error: unknown): number | undefined {
  const status = record(error)?.status;
  return typeof status === 'number' ? status : undefined;
}

export function fieldErrorsOf(error: unknown): FieldErrorLike[] {
  const errors = record(error)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is FieldErrorLike =>
      typeof record(e)?.fieldName === 'string' && typeof record(e)?.message === 'string',
  );
}

const messageOf = (error: unknown): string => {
  if (typeof error === 'string') return error;
  const message = record(error)?.message;
  return typeof message === 'string' ? message : '';
};

/** 'phone number is required' → 'Phone number is required.' */
const asSentence = (text: string): string => {
  const t = text.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return !capital || /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

/**
 * A failure as a person reads it (issue 16: sentences, not field names): the field errors' messages
 * as sentences ('Customer is blocked. At least one item is required.'), else the response message
 * (a network failure reads 'Network Error'), else 'An error occurred'. docs/product.md#errors's
 * 'fieldName:message' is kept for the auth, change-password and profile screens only
 * (src/lib/error-message.ts authErrorMessage).
 */
export function errorText(error: unknown): string {
  const fields = fieldErrorsOf(error);
  if (fields.length > 0)
    return [...new Set(fields.map((e) => asSentence(e.message)).filter(Boolean))].join(' ');
  return messageOf(error) || ERROR_FALLBACK;
}

/** The first message about one field, else the whole message (e.g. the OTP check's 400). */
export function fieldMessage(error: unknown, fieldName: string): string {
  return fieldErrorsOf(error).find((e) => e.fieldName === fieldName)?.message ?? errorText(error);
}

/** The server's own words about a field, else its message; null when it sent none (e.g. offline). */
export function serverMessage(error: unknown, fieldName: string): string | null {
  return fieldErrorsOf(error).find((e) => e.fieldName === fieldName)?.message ?? (messageOf(error) || null);
}

/** '… 3 attempts left' → 3 (the OTP check puts the count in its message); null when absent. */
export function attemptsLeftOf(error: unknown): number | null {
  const texts = [messageOf(error), ...fieldErrorsOf(error).map((e) => e.message)];
  for (const text of texts) {
    const match = /(\d+)\s+(?:attempts?|tries|try)\s+(?:left|remaining)/i.exec(text);
    if (match) return Number(match[1]);
  }
  return null;
}
