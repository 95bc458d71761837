import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createSuperAdmin, setupTestServer, signIn } from '../../tests/setup/server';
import { API_BASE } from '../app';
import { createImportWorker, type ImportWorker } from '../customer-import-worker';
import { customerImports, customers, events } from '../db/schema';

const t = setupTestServer();
let token: string;
let rootId: number;
let worker: ImportWorker;

type Job = {
  id: number;
  state: string;
  rowsRead: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
};

async function upload(body: string, type = 'text/csv', query = '?fileName=subscribers.csv') {
  const res = await t.app.request(`${API_BASE}/admin/customers/imports${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body,
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      data: Job;
      message: string;
      errors: { fieldName: string; message: string }[];
    },
  };
}

async function run(body: string, type = 'text/csv', query?: string): Promise<Job> {
  const res = await upload(body, type, query);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await worker.drain();
  const job = await t.request<Job>('GET', `/admin/customers/imports/${res.body.data.id}`, { token });
  return job.body.data!;
}

const rejectsOf = async (id: number) => {
  const res = await t.app.request(`${API_BASE}/admin/customers/imports/${id}/rejects`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.headers.get('content-type')).toContain('text/csv');
  return (await res.text()).replace(/^\uFEFF/, '');
};

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  token = (await signIn(t, root.email, root.password)).accessToken;
  rootId = root.id;
  worker = createImportWorker({ db: t.db, clock: t.clock, batchSize: 3 });
});

// A header in another order, a BOM, Windows line endings, a quoted comma and a quoted newline, and
// Yoruba, Igbo and Hausa names with their diacritics.
const FILE =
  '\uFEFFemail,First Name,last_name,externalId,phone,address,status\r\n' +
  'ade@mail.test,Adéṣọlá,Ògúnlèyè,Y-1,0803 111 2222,"4 Ọba Akran Avenue, Ikeja",ACTIVE\r\n' +
  'ngozi@mail.test,Ngọzị,Ọkafọ̀,I-2,,"Plot 7\r\nIndependence Layout, Enugu",\r\n' +
  'aisha@mail.test,Ƙaramatu,Ɗanjuma,H-3,08031112223,,blocked\r\n' +
  'bad-email,Bad,Email,B-4,,,\r\n' +
  'short@mail.test,Short,Phone,B-5,12,,\r\n' +
  'dup@mail.test,Dup,Licate,Y-1,,,\r\n' +
  'taken@mail.test,Taken,Email,B-7,,,\r\n';

describe('POST /admin/customers/imports (CSV)', () => {
  it('imports what it can, rejects the rest with reasons, and a re-run changes nothing', async () => {
    await createCustomer(t.db, { externalId: 'OTHER-1', email: 'taken@mail.test' });
    const job = await run(FILE);
    expect(job).toMatchObject({
      state: 'done',
      rowsRead: 7,
      created: 3,
      updated: 0,
      unchanged: 0,
      rejected: 4,
    });
    const [ade] = await t.db.select().from(customers).where(eq(customers.externalId, 'Y-1'));
    expect(ade).toMatchObject({
      firstName: 'Adéṣọlá',
      lastName: 'Ògúnlèyè',
      phone: '08031112222',
      address: '4 Ọba Akran Avenue, Ikeja',
    });
    const [ngozi] = await t.db.select().from(customers).where(eq(customers.externalId, 'I-2'));
    expect(ngozi).toMatchObject({
      firstName: 'Ngọzị',
      lastName: 'Ọkafọ̀',
      phone: null,
      address: 'Plot 7\r\nIndependence Layout, Enugu',
    });
    const [aisha] = await t.db.select().from(customers).where(eq(customers.externalId, 'H-3'));
    expect(aisha).toMatchObject({ firstName: 'Ƙaramatu', accountStatus: 'BLOCKED' });

    const rejects = (await rejectsOf(job.id)).split('\r\n');
    expect(rejects[0]).toBe('row,externalId,reason,row as sent');
    expect(rejects[1]).toBe('5,B-4,email: pls provide a valid email,"bad-email,Bad,Email,B-4,,,"');
    expect(rejects[2]).toBe(
      '6,B-5,phone: Phone number cannot be less than 7 digits,"short@mail.test,Short,Phone,B-5,12,,"',
    );
    expect(rejects[3]).toBe(
      '7,Y-1,The same externalId is already on row 2 of this file,"dup@mail.test,Dup,Licate,Y-1,,,"',
    );
    expect(rejects[4]).toMatch(
      /^8,B-7,This email belongs to another customer \(another external id\); change one of them first,/,
    );
    // Never merged: the other customer keeps its email, no B-7 exists.
    expect(await t.db.select().from(customers).where(eq(customers.externalId, 'B-7'))).toEqual([]);

    const again = await run(FILE);
    expect(again).toMatchObject({
      state: 'done',
      rowsRead: 7,
      created: 0,
      updated: 0,
      unchanged: 3,
      rejected: 4,
    });
    const log = await t.db.select().from(events).where(eq(events.entity, 'customer_import'));
    expect(log.map((e) => e.action)).toEqual([
      'Imported customers from subscribers.csv: 3 created, 0 updated, 0 unchanged, 4 rejected',
      'Imported customers from subscribers.csv: 0 created, 0 updated, 3 unchanged, 4 rejected',
    ]);
  });

  it('NDJSON: one object per line', async () => {
    const job = await run(
      '{"externalId":"N-1","firstName":"Bola","lastName":"Ade","email":"bola@mail.test"}\n' +
        'not json\n' +
        '{"externalId":2,"firstName":"Emeka","lastName":"Obi","email":"emeka@mail.test","status":"BLOCKED"}\n',
      'application/x-ndjson',
      '?fileName=sync.ndjson',
    );
    expect(job).toMatchObject({ rowsRead: 3, created: 2, rejected: 1 });
    expect((await rejectsOf(job.id)).split('\r\n')[1]).toBe(
      '2,,This line is not JSON: each line must be one JSON object,not json',
    );
  });

  it('two imports at once both finish, each row once', async () => {
    const a = Array.from({ length: 20 }, (_, i) => `P-${i},Par${i},Allel,p${i}@mail.test`).join('\n');
    const b = Array.from({ length: 20 }, (_, i) => `Q-${i},Que${i},Ue,q${i}@mail.test`).join('\n');
    const [ra, rb] = await Promise.all([
      upload(`externalId,firstName,lastName,email\n${a}\n`),
      upload(`externalId,firstName,lastName,email\n${b}\n`),
    ]);
    await worker.drain();
    for (const r of [ra, rb]) {
      const job = await t.request<Job>('GET', `/admin/customers/imports/${r.body.data.id}`, { token });
      expect(job.body.data).toMatchObject({ state: 'done', created: 20, rejected: 0 });
    }
  });

  it.each([
    ['an empty file', '', 'text/csv', 'The file is empty: it needs a header row and at least one customer'],
    [
      'a header without rows',
      'externalId,firstName,lastName,email\r\n',
      'text/csv',
      'The file has a header row but no customers',
    ],
    [
      'missing columns',
      'externalId,firstName\nX-1,Ade\n',
      'text/csv',
      'The header row lacks the required columns lastName, email',
    ],
    [
      'an unknown column',
      'externalId,firstName,lastName,email,plan\nX-1,A,B,a@mail.test,Gold\n',
      'text/csv',
      "Unknown column 'plan': rename it to one of externalId, firstName, lastName, email, phone, address, status, internetAccountNumber, or send unknownColumns=ignore",
    ],
    [
      'not a CSV (binary)',
      'PK\u0003\u0004\u0000\u0000binary',
      'text/csv',
      'The file is not a CSV this import reads: send text/csv with a header row (externalId first) or application/x-ndjson',
    ],
    ['another media type', '{}', 'application/json', 'Send the file as text/csv or application/x-ndjson'],
    [
      'an unclosed quote',
      'externalId,firstName,lastName,email\nX-1,"Ade,B,a@mail.test\n',
      'text/csv',
      /^The file is not valid CSV near line/,
    ],
  ])('%s is a 400 naming the problem, and nothing is kept', async (_name, body, type, message) => {
    const before = await t.db.select({ id: customers.id }).from(customers);
    const res = await upload(body, type);
    expect(res.status).toBe(400);
    if (typeof message === 'string') expect(res.body.message).toBe(message);
    else expect(res.body.message).toMatch(message);
    expect((await t.db.select({ id: customers.id }).from(customers)).length).toBe(before.length);
  });

  it('unknownColumns=ignore skips them', async () => {
    const job = await run(
      'externalId,firstName,lastName,email,plan\nX-9,Ada,Eze,x9@mail.test,Gold\n',
      'text/csv',
      '?unknownColumns=ignore',
    );
    expect(job).toMatchObject({ created: 1, rejected: 0 });
  });

  it.each(['/admin/customers/imports', '/admin/customers/imports/dry-run'])(
    'a file over the limit is a 413 before it is read (%s)',
    async (path) => {
      const res = await t.app.request(`${API_BASE}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'text/csv',
          'content-length': String(500 * 1024 * 1024),
        },
        body: 'externalId,firstName,lastName,email\n',
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { message: string }).message).toBe(
        'The file is too large (at most 200 MiB): split it',
      );
    },
  );
});

describe('an erased or deleted customer and the sync (explicit restore)', () => {
  const HEADER = 'externalId,firstName,lastName,email\r\n';
  const restore = (id: number) =>
    t.request<{ customerId: number; result: string; externalId: string | null }>(
      'POST',
      `/admin/user/customers/${id}/restore`,
      { token },
    );
  const putOne = (externalId: string, email: string) =>
    t.request<{ result: string; customer: { id: number } }>(
      'PUT',
      `/admin/customers/external/${externalId}`,
      {
        token,
        json: { firstName: 'Chiamaka', lastName: 'Eze', email },
      },
    );

  it('an erased customer is not re-imported under its external id until an admin frees it', async () => {
    const first = await run(`${HEADER}ERASE-1,Chiamaka,Eze,chiamaka.eze@mail.test\r\n`);
    expect(first.created).toBe(1);
    const [made] = await t.db.select().from(customers).where(eq(customers.externalId, 'ERASE-1'));
    // The tombstone an erasure leaves (issue 28): personal data gone, erased_at set, the row kept.
    await t.db
      .update(customers)
      .set({
        erasedAt: t.clock(),
        firstName: 'Erased',
        lastName: 'Customer',
        email: `erased-${made!.id}@erased.invalid`,
      })
      .where(eq(customers.id, made!.id));

    // One by one: a 409 naming the external id, nothing written.
    const refused = await putOne('ERASE-1', 'chiamaka.eze@mail.test');
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors).toEqual([
      { fieldName: 'externalId', message: expect.stringContaining('erased') },
    ]);
    // In a file: the row is rejected with the reason.
    const again = await run(`${HEADER}ERASE-1,Chiamaka,Eze,chiamaka.eze@mail.test\r\n`);
    expect({ created: again.created, updated: again.updated, rejected: again.rejected }).toEqual({
      created: 0,
      updated: 0,
      rejected: 1,
    });
    expect(await rejectsOf(again.id)).toContain('personal data was erased');
    const rows = await t.db.select().from(customers).where(eq(customers.externalId, 'ERASE-1'));
    expect(rows.map((r) => [r.id, r.firstName, r.erasedAt !== null])).toEqual([[made!.id, 'Erased', true]]);

    // The admin's explicit step frees the external id; the tombstone stays erased.
    const freed = await restore(made!.id);
    expect(freed.status, freed.text).toBe(200);
    expect(freed.body.data).toEqual({ customerId: made!.id, result: 'released', externalId: 'ERASE-1' });
    const [tombstone] = await t.db.select().from(customers).where(eq(customers.id, made!.id));
    expect([tombstone!.externalId, tombstone!.erasedAt !== null, tombstone!.firstName]).toEqual([
      null,
      true,
      'Erased',
    ]);
    const log = await t.db
      .select()
      .from(events)
      .where(eq(events.entityId, String(made!.id)));
    expect(log.map((e) => e.action)).toContain(
      `Freed external id ERASE-1 of erased customer #${made!.id} for a new import`,
    );

    // Now a new record comes in under that external id: a new customer, not the erased one.
    const third = await run(`${HEADER}ERASE-1,Chiamaka,Eze,chiamaka.eze@mail.test\r\n`);
    expect({ created: third.created, rejected: third.rejected }).toEqual({ created: 1, rejected: 0 });
    const [fresh] = await t.db.select().from(customers).where(eq(customers.externalId, 'ERASE-1'));
    expect(fresh!.id).not.toBe(made!.id);
    // Nothing left to restore on the tombstone.
    expect((await restore(made!.id)).status).toBe(409);
  });

  it('a deleted customer is not changed by a sync until restored; restore of a live one or an unknown id is refused', async () => {
    const c = await createCustomer(t.db, { externalId: 'DEL-1' });
    await t.db.update(customers).set({ deletedAt: t.clock() }).where(eq(customers.id, c.id));
    const refused = await putOne('DEL-1', 'del-1@mail.test');
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors?.[0]?.fieldName).toBe('externalId');
    const [still] = await t.db.select().from(customers).where(eq(customers.id, c.id));
    expect([still!.firstName, still!.deletedAt !== null]).toEqual([c.firstName, true]);

    const back = await restore(c.id);
    expect(back.body.data).toEqual({ customerId: c.id, result: 'restored', externalId: 'DEL-1' });
    const synced = await putOne('DEL-1', 'del-1@mail.test');
    expect(synced.status, synced.text).toBe(200);
    expect([synced.body.data!.result, synced.body.data!.customer.id]).toEqual(['updated', c.id]);

    expect((await restore(c.id)).status).toBe(409);
    expect((await restore(999_999_999)).status).toBe(404);
  });
});

type DryRun = {
  fileName: string;
  rowsRead: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
  rejects: { row: number; externalId: string | null; reason: string }[];
};

async function dryRun(body: string, query = '') {
  const res = await t.app.request(`${API_BASE}/admin/customers/imports/dry-run${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body,
  });
  return {
    status: res.status,
    body: (await res.json()) as { data: DryRun; message: string; errors: { fieldName: string }[] },
  };
}

/** Everything an import could change: the customers, the activity log, the import jobs. */
const snapshot = async () => ({
  customers: await t.db.select().from(customers).orderBy(customers.id),
  events: (await t.db.select({ id: events.id }).from(events)).length,
  imports: (await t.db.select({ id: customerImports.id }).from(customerImports)).length,
});

describe('POST /admin/customers/imports/dry-run (docs/decisions/062)', () => {
  // The customers as the subscriber system sent them last night.
  const LAST_NIGHT =
    'externalId,firstName,lastName,email,phone\n' +
    'DRY-1,Chidi,Eze,chidi@dry.test,08031234567\n' +
    'DRY-2,Funke,Ade,funke@dry.test,\n';
  // Tonight's file: its header in another order, a column the import does not know ("Plan",
  // mapped to ignore) and one it knows by another name ("Surname", mapped to lastName).
  const TONIGHT =
    'Surname,email,externalId,Plan,firstName,phone\n' +
    'Eze,chidi@dry.test,DRY-1,Gold,Chidi,08031234567\n' + // row 2: as last night: unchanged
    'Adeyemi,funke@dry.test,DRY-2,Silver,Funke,\n' + // row 3: a new surname: updated
    'Okoro,tunde@dry.test,DRY-3,Gold,Tunde,\n' + // row 4: new: created
    'Bello,not-an-email,DRY-4,Gold,Musa,\n' + // row 5: a bad email: rejected
    'Obi,tunde@dry.test,DRY-5,,Ada,\n'; // row 6: row 4 took this email: rejected
  const MAPPING = `?fileName=tonight.csv&mapping=${encodeURIComponent(JSON.stringify({ Surname: 'lastName', Plan: 'ignore' }))}`;
  // Worked by hand from the rules (docs/product.md, decision 051): 5 rows read; row 4 new; row 3
  // changes a field; row 2 changes none; row 5 fails the email rule; row 6 names an email row 4 holds.
  const EXPECTED = { rowsRead: 5, created: 1, updated: 1, unchanged: 1, rejected: 2 };

  it('says what the import would do, changes nothing, and the import then does exactly that', async () => {
    await run(LAST_NIGHT);
    const before = await snapshot();

    const dry = await dryRun(TONIGHT, MAPPING);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.message).toBe('Dry run: nothing was changed');
    expect(dry.body.data).toMatchObject({ fileName: 'tonight.csv', ...EXPECTED });
    expect(dry.body.data.rejects).toEqual([
      { row: 5, externalId: 'DRY-4', reason: 'email: pls provide a valid email' },
      {
        row: 6,
        externalId: 'DRY-5',
        reason: 'This email belongs to another customer (another external id); change one of them first',
      },
    ]);
    // Nothing changed: no customer, no event, no job left behind.
    expect(await snapshot()).toEqual(before);

    const job = await run(TONIGHT, 'text/csv', MAPPING);
    expect(job).toMatchObject({ state: 'done', ...EXPECTED });
    const [funke] = await t.db.select().from(customers).where(eq(customers.externalId, 'DRY-2'));
    expect(funke?.lastName).toBe('Adeyemi');
    // The import, not the dry run, is in the activity log: who, the file's name and the counts.
    const log = await t.db
      .select()
      .from(events)
      .where(eq(events.entityId, String(job.id)));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      entity: 'customer_import',
      actorId: rootId,
      action: 'Imported customers from tonight.csv: 1 created, 1 updated, 1 unchanged, 2 rejected',
      payload: { fileName: 'tonight.csv', ...EXPECTED },
    });
  });

  it('across many rows counts what the earlier rows would have done (an email moved, then taken)', async () => {
    await run('externalId,firstName,lastName,email\nMOV-X,Kemi,Lawal,kemi@mov.test\n');
    // Row 2 wants Kemi's email (still hers): rejected. Row 3, Kemi's own, moves her email: updated.
    // 1,100 new customers follow, so the last two rows are decided in a later round than rows 2-3:
    // Kemi's old email is free again, MOV-Z takes it (created); MOV-W wants her new one: rejected.
    const filler = Array.from({ length: 1100 }, (_, i) => `MOV-F${i},Fill${i},Er,fill${i}@mov.test`);
    const file = [
      'externalId,firstName,lastName,email',
      'MOV-Y,Yemi,Ojo,kemi@mov.test',
      'MOV-X,Kemi,Lawal,kemi.lawal@mov.test',
      ...filler,
      'MOV-Z,Zainab,Musa,kemi@mov.test',
      'MOV-W,Wale,Ola,kemi.lawal@mov.test',
      '',
    ].join('\n');
    const expected = { rowsRead: 1104, created: 1101, updated: 1, unchanged: 0, rejected: 2 };
    const before = await snapshot();
    const dry = await dryRun(file);
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject(expected);
    expect(dry.body.data.rejects.map((r) => [r.row, r.externalId])).toEqual([
      [2, 'MOV-Y'],
      [1105, 'MOV-W'],
    ]);
    expect(await snapshot()).toEqual(before);
    // The import itself, in rounds of 250 rows (the file's worker's 3 would make 200 transactions).
    const sent = await upload(file);
    expect(sent.status).toBe(201);
    await createImportWorker({ db: t.db, clock: t.clock, batchSize: 250 }).drain();
    const job = await t.request<Job>('GET', `/admin/customers/imports/${sent.body.data.id}`, { token });
    expect(job.body.data).toMatchObject({ state: 'done', ...expected });
  }, 60_000);

  it('refuses what the import refuses, with the same words, and keeps nothing', async () => {
    const before = await snapshot();
    const missing = await dryRun('externalId,firstName\nX-1,Ade\n');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('The header row lacks the required columns lastName, email');
    const badMapping = await dryRun(TONIGHT, `?mapping=${encodeURIComponent('{"Surname":"surname"}')}`);
    expect(badMapping.status).toBe(400);
    expect(badMapping.body.errors[0]?.fieldName).toBe('mapping');
    const absent = await dryRun(TONIGHT, `?mapping=${encodeURIComponent('{"Tariff":"ignore"}')}`);
    expect(absent.status).toBe(400);
    expect(absent.body.message).toBe("The mapping names 'Tariff', not in the header row");
    const unmapped = await dryRun(TONIGHT, `?mapping=${encodeURIComponent('{"Surname":"lastName"}')}`);
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.message).toMatch(/^Unknown column 'Plan'/);
    expect(await snapshot()).toEqual(before);
  });
});
