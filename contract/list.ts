import { z } from 'zod';

/** Page sizes the lists offer (SPEC section 9). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

const pageSizeMessage = `pageSize must be one of ${PAGE_SIZES.join(', ')}`;

/** The earliest date a filter takes: before it, instants fall outside what the database can store. */
export const EARLIEST_DATE = '1900-01-01';

/** A calendar date (YYYY-MM-DD) from 1900 on. */
export const listDate = (name: string) =>
  z.iso
    .date({ error: `${name} must be a date (YYYY-MM-DD)` })
    .refine((d) => d >= EARLIEST_DATE, { error: `${name} must be on or after ${EARLIEST_DATE}` });

/**
 * Query of every list call: pageNumber (a string from '1'), pageSize, searchText or search,
 * sortBy and sortOrder (sorting spans all pages), optional dates. Empty values count as absent.
 */
export const listQuerySchema = z.object({
  pageNumber: z.coerce
    .number({ error: 'pageNumber must be a whole number from 1' })
    .int({ error: 'pageNumber must be a whole number from 1' })
    .min(1, { error: 'pageNumber must be a whole number from 1' })
    .max(1_000_000, { error: 'pageNumber is too large' })
    .default(1),
  pageSize: z.coerce
    .number({ error: pageSizeMessage })
    .refine((n): n is PageSize => (PAGE_SIZES as readonly number[]).includes(n), { error: pageSizeMessage })
    .default(10),
  searchText: z.string().trim().max(100, { error: 'searchText must be at most 100 characters' }).optional(),
  search: z.string().trim().max(100, { error: 'search must be at most 100 characters' }).optional(),
  sortBy: z.string().max(40).optional(),
  sortOrder: z.enum(['asc', 'desc'], { error: "sortOrder must be 'asc' or 'desc'" }).optional(),
  startDate: listDate('startDate').optional(),
  endDate: listDate('endDate').optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** The search text of a list query, whichever of the two spellings the caller used. */
export const searchOf = (q: Pick<ListQuery, 'searchText' | 'search'>): string | undefined =>
  (q.searchText || q.search || '').trim() || undefined;

export const accountStatusSchema = z.enum(['ACTIVE', 'BLOCKED'], {
  error: "status must be 'ACTIVE' or 'BLOCKED'",
});
export type AccountStatus = z.infer<typeof accountStatusSchema>;
