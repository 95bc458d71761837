import { z } from 'zod';

/** One field-level problem, as the spec's `errors` items. */
export const fieldErrorSchema = z.object({ fieldName: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Every response: `{ success, data, message, errors }` (DESIGN.md section 3). */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({
    success: z.boolean(),
    data: data.nullable(),
    message: z.string(),
    errors: z.array(fieldErrorSchema),
  });

export type Envelope<T> = { success: boolean; data: T | null; message: string; errors: FieldError[] };

export const listMetaSchema = z.object({
  totalCount: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
});

export const listSchema = <T extends z.ZodType>(record: T) =>
  z.object({ records: z.array(record), meta: listMetaSchema });

export type ListData<T> = { records: T[]; meta: z.infer<typeof listMetaSchema> };
