import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createCustomer, setupTestServer } from '../../tests/setup/server';
import { customerImportRejects, customerImportRows, customerImports, customers } from '../db/schema';
import { dryRunStaged } from './customer-import-dry-run';

/*
 * The import's dry run on staged rows (docs/decisions/062-import-dry-run.md, 051): each row decided
 * in file order by the sync's rules, what the earlier rows would have done counted in (an email an
 * earlier row frees is free, one an earlier row takes is taken), across the rounds of 1,000 rows; a
 * rejected row goes to the rejects with its reason, as the import does; no customer is written.
 */

const t = setupTestServer();

const EMAIL_TAKEN = 'This email belongs to another customer (another external id); change one of them first';

const newJob = async () =>
  (
    await t.db
      .insert(customerImports)
      .values({ fileName: 'subs.csv', format: 'csv', actor: {} })
      .returning({ id: customerImports.id })
  )[0]!.id;

type Staged = { row: number; externalId: string; email: string; firstName?: string };

const stage = (importId: number, rows: Staged[]) =>
  t.db.insert(customerImportRows).values(
    rows.map((r) => ({
      importId,
      rowNumber: r.row,
      externalId: r.externalId,
      record: { firstName: r.firstName ?? 'Sade', lastName: 'Ola', email: r.email },
    })),
  );

describe('dryRunStaged', () => {
  it('created, updated, unchanged and rejected as the import would; rejects kept with their reason; no customer written', async () => {
    await createCustomer(t.db, {
      externalId: 'DRY-SAME',
      firstName: 'Sade',
      lastName: 'Ola',
      email: 'same@mail.test',
      phone: null,
      address: null,
      internetAccountNumber: null,
    });
    await createCustomer(t.db, {
      externalId: 'DRY-CHANGE',
      firstName: 'Old',
      lastName: 'Ola',
      email: 'change@mail.test',
    });
    await createCustomer(t.db, { externalId: 'DRY-OTHER', email: 'taken@mail.test' });
    const before = (await t.db.select().from(customers)).length;
    const job = await newJob();
    await stage(job, [
      { row: 2, externalId: 'DRY-NEW', email: 'new@mail.test' },
      { row: 3, externalId: 'DRY-SAME', email: 'same@mail.test' },
      { row: 5, externalId: 'DRY-CHANGE', email: 'change@mail.test' },
      { row: 6, externalId: 'DRY-THIEF', email: 'Taken@Mail.test' },
    ]);
    expect(await dryRunStaged(t.db, job)).toEqual({ created: 1, updated: 1, unchanged: 1, rejected: 1 });
    const rejects = await t.db
      .select()
      .from(customerImportRejects)
      .where(eq(customerImportRejects.importId, job));
    expect(rejects.map(({ raw, ...r }) => r)).toEqual([
      { importId: job, rowNumber: 6, externalId: 'DRY-THIEF', reason: EMAIL_TAKEN },
    ]);
    // The row as sent.
    expect(JSON.parse(rejects[0]!.raw)).toEqual({
      externalId: 'DRY-THIEF',
      firstName: 'Sade',
      lastName: 'Ola',
      email: 'Taken@Mail.test',
    });
    // The rejected row left the staged rows, as in the import; the others stay for it.
    const staged = await t.db.select().from(customerImportRows).where(eq(customerImportRows.importId, job));
    expect(staged.map((r) => r.rowNumber).sort((a, b) => a - b)).toEqual([2, 3, 5]);
    expect((await t.db.select().from(customers)).length).toBe(before);
  });

  it('over several rounds: an email an earlier row moved away is free, one an earlier row took is not', async () => {
    await createCustomer(t.db, { externalId: 'MOVE-1', email: 'moving@mail.test' });
    const job = await newJob();
    const rows: Staged[] = [
      // Round one: a customer moves to a new address; a new row takes another address.
      { row: 2, externalId: 'MOVE-1', email: 'moved@mail.test' },
      { row: 3, externalId: 'FIRST-TAKER', email: 'shared@mail.test' },
    ];
    // Filler to the end of round one (1,000 rows) and into round two.
    for (let i = 0; i < 998; i++)
      rows.push({ row: 4 + i, externalId: `FILL-${i}`, email: `fill${i}@mail.test` });
    rows.push(
      // Round two: the address the customer left is free; the ones earlier rows took are not.
      { row: 1002, externalId: 'GETS-FREED', email: 'MOVING@mail.test' },
      { row: 1003, externalId: 'LATE-1', email: 'moved@mail.test' },
      { row: 1004, externalId: 'LATE-2', email: 'shared@mail.test' },
      { row: 1005, externalId: 'LATE-3', email: 'late3@mail.test' },
    );
    await stage(job, rows);
    expect(await dryRunStaged(t.db, job)).toEqual({ created: 1001, updated: 1, unchanged: 0, rejected: 2 });
    const rejects = await t.db
      .select()
      .from(customerImportRejects)
      .where(eq(customerImportRejects.importId, job));
    expect(rejects.map((r) => [r.rowNumber, r.externalId, r.reason]).sort()).toEqual([
      [1003, 'LATE-1', EMAIL_TAKEN],
      [1004, 'LATE-2', EMAIL_TAKEN],
    ]);
  });

  it('rows numbered with gaps (bad rows rejected while staging): every staged row once', async () => {
    const job = await newJob();
    const rows: Staged[] = [];
    for (let i = 0; i < 1003; i++)
      rows.push({ row: 2 + i * 2, externalId: `GAP-${i}`, email: `gap${i}@mail.test` });
    await stage(job, rows);
    expect(await dryRunStaged(t.db, job)).toEqual({ created: 1003, updated: 0, unchanged: 0, rejected: 0 });
  });

  it('nothing staged: all zero', async () => {
    expect(await dryRunStaged(t.db, await newJob())).toEqual({
      created: 0,
      updated: 0,
      unchanged: 0,
      rejected: 0,
    });
  });
});
