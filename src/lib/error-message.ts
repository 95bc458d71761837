import { ApiError } from '../api/client';
import { TEXTS } from './texts';

/**
 * SPEC section 8, auth, change-password and profile-update failures: the errors list joined as
 * 'fieldName:message' with commas; else the response message; else the error text; else a fallback.
 */
export function authErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.errors.length > 0) {
    return error.errors.map((e) => `${e.fieldName}:${e.message}`).join(',');
  }
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return TEXTS.errorFallback;
}

/**
 * Every other failure a person reads (issue 16): sentences, never field names (errorText, shared
 * with the flow machines). SPEC's 'fieldName:message' stays for the auth, change-password and
 * profile screens (authErrorMessage).
 */
export { errorText as errorSentence } from '../machines/flow-support';

/** SPEC section 8, data-query errors: 'Error: ' + server message, else a server or client fallback. */
export function queryErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return error.message;
    return error.message ? `Error: ${error.message}` : 'An error occurred on the server';
  }
  return 'An unexpected error occurred on the client';
}
