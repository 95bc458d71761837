import { describe, expect, it } from 'vitest';
import { customerList } from './customers';
import { defineList, SEARCH_MAX } from './list';
import { z } from './zod';

const things = defineList({
  sortKeys: ['name', 'createdAt'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
  filters: { kind: z._default(z.enum(['A', 'B']), 'A') },
});

describe('defineList: one definition, the server query and the URL search', () => {
  it('the server query takes the list sort keys and filters, with the common list keys', () => {
    expect(things.query.parse({ pageNumber: '2', pageSize: '20', sortBy: 'name', kind: 'B' })).toEqual({
      pageNumber: 2,
      pageSize: 20,
      sortBy: 'name',
      kind: 'B',
    });
    expect(things.query.parse({})).toEqual({ pageNumber: 1, pageSize: 10, kind: 'A' });
  });

  it('the server query refuses a sort key or filter value the list does not have', () => {
    expect(things.query.safeParse({ sortBy: 'password' }).success).toBe(false);
    expect(things.query.safeParse({ kind: 'C' }).success).toBe(false);
    expect(things.query.safeParse({ pageSize: '7' }).success).toBe(false);
  });

  it('the URL search has the same sort keys and default sort, and falls back on bad values', () => {
    expect(things.search.parse({})).toEqual({
      page: 1,
      pageSize: 10,
      search: '',
      sortBy: 'createdAt',
      sortOrder: 'desc',
    });
    expect(things.search.parse({ sortBy: 'name', sortOrder: 'asc', page: '3' })).toMatchObject({
      page: 3,
      sortBy: 'name',
      sortOrder: 'asc',
    });
    expect(things.search.parse({ sortBy: 'password', pageSize: '7', page: '-1' })).toMatchObject({
      page: 1,
      pageSize: 10,
      sortBy: 'createdAt',
    });
  });

  it('a URL search over the limit is cut to it, not dropped (the server takes what the URL keeps)', () => {
    const long = `  ${'x'.repeat(SEARCH_MAX - 1)}yz  `;
    const search = things.search.parse({ search: long }).search;
    expect(search).toBe(`${'x'.repeat(SEARCH_MAX - 1)}y`);
    expect(things.query.safeParse({ searchText: search }).success).toBe(true);
    expect(things.search.parse({ search: 2026 }).search).toBe('2026');
  });

  it('every sort key the URL accepts, the server accepts (customers)', () => {
    for (const sortBy of customerList.sortKeys) {
      expect(customerList.search.parse({ sortBy }).sortBy).toBe(sortBy);
      expect(customerList.query.parse({ sortBy }).sortBy).toBe(sortBy);
    }
    expect(customerList.query.parse({}).status).toBe('ACTIVE');
  });
});
