import { IMAGE_TOO_LARGE, MAX_IMAGE_BASE64 } from './images';
import { z } from './zod';

/** The largest id the database holds (PostgreSQL integer): a larger one is refused, never sent to SQL. */
export const MAX_ID = 2_147_483_647;

/** A positive whole-number id, from JSON or from a path/query string. */
export const idField = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .check(
      z.int({ error: `${name} must be a whole number` }),
      z.positive({ error: `${name} must be a positive number` }),
      z.maximum(MAX_ID, { error: `${name} is out of range` }),
    );

/** A base64 image without a data-URL prefix (PNG, JPEG or WebP; at most 5 MiB decoded, checked on the server). */
export const base64ImageField = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .check(
      z.minLength(1, { error: requiredMessage }),
      z.maxLength(MAX_IMAGE_BASE64, { error: IMAGE_TOO_LARGE }),
    );

/** A calendar date, YYYY-MM-DD. */
export const dateField = (name: string) =>
  z.iso
    .date({ error: `${name} must be a date (YYYY-MM-DD)` })
    .check(z.refine((d) => d >= '1900-01-01', { error: `${name} must be on or after 1900-01-01` }));
