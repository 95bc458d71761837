import { TEXTS } from '../lib/texts';

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
 * (a network failure reads 'Network Error'), else 'An error occurred'. SPEC section 8's
 * 'fieldName:message' is kept for the auth, change-password and profile screens only
 * (src/lib/error-message.ts authErrorMessage).
 */
export function errorText(error: unknown): string {
  const fields = fieldErrorsOf(error);
  if (fields.length > 0)
    return [...new Set(fields.map((e) => asSentence(e.message)).filter(Boolean))].join(' ');
  return messageOf(error) || TEXTS.errorFallback;
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

/** The browser's online/offline events, forwarded by the UI (`navigator.onLine` gives the start value). */
export type NetworkEvent = { type: 'network.offline' } | { type: 'network.online' };

/** Where a machine starts: the given flag, else `navigator.onLine`, else online. */
export const startsOnline = (flag: boolean | undefined): boolean =>
  flag ?? (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

/**
 * A `linkBack` effect (issue 17): probes every `everyMs` and resolves once a probe answers after
 * at least one did not (the link was down and is back). A link that never went down does not
 * resolve it: the caller's own backoff governs then. Stops when the signal aborts.
 */
export function waitForLinkBack(
  probe: () => Promise<boolean>,
  { everyMs = 1000, signal }: { everyMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  return new Promise((resolve) => {
    let down = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (signal?.aborted) return;
      const up = await probe().catch(() => false);
      if (signal?.aborted) return;
      if (up && down) return resolve();
      if (!up) down = true;
      timer = setTimeout(tick, everyMs);
    };
    signal?.addEventListener('abort', () => clearTimeout(timer));
    timer = setTimeout(tick, everyMs);
  });
}
