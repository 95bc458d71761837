import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { listQuerySchema } from '../../contract/list';
import { users } from '../db/schema';
import { dayStart, escapeLike, type ListSpec, planList } from './list';

const dialect = new PgDialect();
const spec: ListSpec<'createdAt' | 'email'> = {
  sortColumns: { createdAt: users.createdAt, email: users.email },
  list: { sortKeys: ['createdAt', 'email'], defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' } },
  tieBreaker: users.id,
  searchTarget: users.email as never,
  dateColumn: users.createdAt,
};
const render = (q: Record<string, string>) => {
  const plan = planList(spec, listQuerySchema.parse(q) as never);
  const orderBy = plan.orderBy.map((o) => dialect.sqlToQuery(o).sql).join(', ');
  const where = plan.where ? dialect.sqlToQuery(plan.where) : undefined;
  return { ...plan, orderBy, where };
};

describe('planList', () => {
  it('defaults: page 1 of 10, the list’s default sort, id as tie-breaker in the same direction', () => {
    const p = render({});
    expect(p).toMatchObject({ limit: 10, offset: 0, where: undefined });
    expect(p.orderBy).toBe('"users"."created_at" desc, "users"."id" desc');
  });

  it('sortBy alone sorts ascending; sortOrder applies to the tie-breaker too', () => {
    expect(render({ sortBy: 'email' }).orderBy).toBe('"users"."email" asc, "users"."id" asc');
    expect(render({ sortBy: 'email', sortOrder: 'desc' }).orderBy).toBe(
      '"users"."email" desc, "users"."id" desc',
    );
  });

  it('pageNumber and pageSize become OFFSET and LIMIT', () => {
    expect(render({ pageNumber: '3', pageSize: '50' })).toMatchObject({ limit: 50, offset: 100 });
  });

  it('search (either spelling) is a literal ILIKE; dates are whole Lagos days', () => {
    const p = render({ search: ' 50%_off\\ ', startDate: '2026-03-01', endDate: '2026-03-01' });
    expect(p.where!.sql).toContain('ilike');
    expect(p.where!.params).toEqual([
      '%50\\%\\_off\\\\%',
      '2026-02-28T23:00:00.000Z',
      '2026-03-01T23:00:00.000Z',
    ]);
  });

  it('escapeLike and dayStart', () => {
    expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
    expect(dayStart('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
  });
});
