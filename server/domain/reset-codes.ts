import { randomBytes } from 'node:crypto';

/** No 0/O or 1/I: easy to read from a mail and type. 32 symbols, so `byte & 31` is unbiased. */
export const RESET_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const RESET_CODE_LENGTH = 8;
export const RESET_CODE_TTL_MS = 15 * 60 * 1000;

export function generateResetCode(bytes: Uint8Array = randomBytes(RESET_CODE_LENGTH)): string {
  let code = '';
  for (let i = 0; i < RESET_CODE_LENGTH; i++) code += RESET_CODE_ALPHABET[(bytes[i] ?? 0) & 31];
  return code;
}

/** What a person types: case, spaces and dashes do not matter. */
export const normalizeResetCode = (input: string): string => input.toUpperCase().replace(/[\s-]/g, '');

/** An invitation's set-password code lives longer: the invitee may read the mail days later. */
export const INVITE_CODE_TTL_MS = 72 * 60 * 60 * 1000;
