import { z } from './zod';

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
    .check(z.refine((d) => d >= EARLIEST_DATE, { error: `${name} must be on or after ${EARLIEST_DATE}` }));

/** One of PAGE_SIZES, from a string too (typed as PageSize, as a type-guard refinement narrows it). */
export const pageSizeField = z.coerce
  .number({ error: pageSizeMessage })
  .check(
    z.refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { error: pageSizeMessage }),
  ) as z.ZodMiniType<PageSize, unknown>;

/**
 * Query of every list call: pageNumber (a string from '1'), pageSize, searchText or search,
 * sortBy and sortOrder (sorting spans all pages), optional dates. Empty values count as absent.
 */
export const listQuerySchema = z.object({
  pageNumber: z._default(
    z.coerce
      .number({ error: 'pageNumber must be a whole number from 1' })
      .check(
        z.int({ error: 'pageNumber must be a whole number from 1' }),
        z.minimum(1, { error: 'pageNumber must be a whole number from 1' }),
        z.maximum(1_000_000, { error: 'pageNumber is too large' }),
      ),
    1,
  ),
  pageSize: z._default(pageSizeField, 10),
  searchText: z.optional(
    z.string().check(z.trim(), z.maxLength(100, { error: 'searchText must be at most 100 characters' })),
  ),
  search: z.optional(
    z.string().check(z.trim(), z.maxLength(100, { error: 'search must be at most 100 characters' })),
  ),
  sortBy: z.optional(z.string().check(z.maxLength(40))),
  sortOrder: z.optional(z.enum(['asc', 'desc'], { error: "sortOrder must be 'asc' or 'desc'" })),
  startDate: z.optional(listDate('startDate')),
  endDate: z.optional(listDate('endDate')),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** The search text of a list query, whichever of the two spellings the caller used. */
export const searchOf = (q: Pick<ListQuery, 'searchText' | 'search'>): string | undefined =>
  (q.searchText || q.search || '').trim() || undefined;

export const accountStatusSchema = z.enum(['ACTIVE', 'BLOCKED'], {
  error: "status must be 'ACTIVE' or 'BLOCKED'",
});
export type AccountStatus = z.infer<typeof accountStatusSchema>;
