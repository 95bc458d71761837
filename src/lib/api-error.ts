import type { FieldError } from '../../contract/envelope';

/** The message of a call that got no response (status 0). */
export const NETWORK_ERROR = 'Network Error';

/** A failed call: HTTP status (0 when no response arrived), the envelope message and field errors. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
    /** The server's stable error code (`validation_failed`, `partner_blocked` ...), when it sent one. */
    readonly code?: string,
  ) {
    super(message);
  }
}
