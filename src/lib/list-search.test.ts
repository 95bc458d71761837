import { describe, expect, it } from 'vitest';
import { listSearchSchema } from '../../contract/list';
import { applyListChange, applyTabChange, tabbedListSearchSchema, toListQuery } from './list-search';

const schema = tabbedListSearchSchema({
  tabs: ['users', 'roles'],
  sortKeys: ['name', 'createdAt'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
});

describe('list search schema', () => {
  it('gives every key its default', () => {
    expect(schema.parse({})).toEqual({
      activeTab: 'users',
      page: 1,
      pageSize: 10,
      search: '',
      sortBy: 'createdAt',
      sortOrder: 'desc',
    });
  });

  it('reads a URL exactly', () => {
    expect(
      schema.parse({
        activeTab: 'roles',
        page: '3',
        pageSize: '50',
        search: ' ada ',
        sortBy: 'name',
        sortOrder: 'asc',
      }),
    ).toEqual({ activeTab: 'roles', page: 3, pageSize: 50, search: 'ada', sortBy: 'name', sortOrder: 'asc' });
  });

  it('falls back to the defaults for bad values', () => {
    expect(
      schema.parse({ activeTab: 'x', page: '-2', pageSize: '7', sortBy: 'password', sortOrder: 'up' }),
    ).toMatchObject({ activeTab: 'users', page: 1, pageSize: 10, sortBy: 'createdAt', sortOrder: 'desc' });
  });

  it('has no sort without a default sort', () => {
    expect(listSearchSchema({ sortKeys: ['name'] }).parse({})).toEqual({
      page: 1,
      pageSize: 10,
      search: '',
      sortBy: undefined,
      sortOrder: undefined,
    });
  });
});

describe('page-reset rules', () => {
  const prev = {
    activeTab: 'users',
    page: 4,
    pageSize: 10 as const,
    search: 'ada',
    sortBy: 'name',
    sortOrder: 'asc' as const,
  };

  it('paging keeps everything else', () => {
    expect(applyListChange(prev, { type: 'page', page: 5 })).toEqual({ ...prev, page: 5 });
  });

  it('page size, search and sort go back to page 1', () => {
    expect(applyListChange(prev, { type: 'pageSize', pageSize: 50 })).toEqual({
      ...prev,
      pageSize: 50,
      page: 1,
    });
    expect(applyListChange(prev, { type: 'search', search: ' bola ' })).toEqual({
      ...prev,
      search: 'bola',
      page: 1,
    });
    expect(applyListChange(prev, { type: 'sort', sortBy: 'createdAt', sortOrder: 'desc' })).toEqual({
      ...prev,
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
    });
  });

  it('a tab change goes back to page 1, clearing search and sort unless asked to keep them', () => {
    // The page size belongs to the tab's list too (issue 32 item 7: Rewards at 50 a page, then
    // Analytics, kept pageSize=25 in the address): the next tab starts at the default.
    expect(applyTabChange({ ...prev, pageSize: 50 }, 'roles').pageSize).toBe(10);
    expect(applyTabChange(prev, 'roles')).toEqual({
      ...prev,
      activeTab: 'roles',
      page: 1,
      pageSize: 10,
      search: '',
      sortBy: undefined,
      sortOrder: undefined,
    });
    expect(applyTabChange(prev, 'roles', { keepSearchAndSort: true })).toEqual({
      ...prev,
      activeTab: 'roles',
      page: 1,
    });
    expect(applyTabChange(prev, 'users')).toBe(prev);
  });
});

describe('toListQuery', () => {
  it('sends pageNumber as a string, search as searchText, and only known sort keys', () => {
    expect(
      toListQuery({ page: 2, pageSize: 20, search: 'ada', sortBy: 'name', sortOrder: 'desc' }, ['name']),
    ).toEqual({
      pageNumber: '2',
      pageSize: 20,
      searchText: 'ada',
      sortBy: 'name',
      sortOrder: 'desc',
    });
    expect(toListQuery({ page: 1, pageSize: 10, search: '', sortBy: 'staffCount' }, ['name'])).toEqual({
      pageNumber: '1',
      pageSize: 10,
    });
  });
});
