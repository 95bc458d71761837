import { z } from './zod';

/** One field-level problem, as the spec's `errors` items. */
export const fieldErrorSchema = z.object({ fieldName: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Every response: `{ success, data, message, errors }` (DESIGN.md section 3). */
export const envelopeSchema = <T extends z.core.$ZodType>(data: T) =>
  z.object({
    success: z.boolean(),
    data: z.nullable(data),
    message: z.string(),
    errors: z.array(fieldErrorSchema),
  });

export type Envelope<T> = { success: boolean; data: T | null; message: string; errors: FieldError[] };

export const listMetaSchema = z.object({
  totalCount: z.int(),
  pageNumber: z.int(),
  pageSize: z.int(),
});

export const listSchema = <T extends z.core.$ZodType>(record: T) =>
  z.object({ records: z.array(record), meta: listMetaSchema });

export type ListData<T> = { records: T[]; meta: z.infer<typeof listMetaSchema> };
