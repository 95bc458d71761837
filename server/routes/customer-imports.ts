import { createInterface } from 'node:readline';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parse as parseCsv } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Context } from 'hono';
import {
  addCustomerBodySchema,
  DRY_RUN_REJECTS,
  IMPORT_FIELDS,
  type ImportDryRun,
  type ImportField,
  type ImportJob,
  type ImportMapping,
  importFieldOf,
  importMappingSchema,
  type importQuerySchema,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_LINE_BYTES,
  importMessages as msg,
  REQUIRED_IMPORT_FIELDS,
} from '../../contract/customer-sync';
import type { z } from '../../contract/zod';
import { UPLOAD_HEARTBEAT_MS } from '../customer-import-worker';
import type { Db } from '../db/client';
import { customerImportRejects, customerImportRows, customerImports } from '../db/schema';
import { dryRunStaged } from '../domain/customer-import-dry-run';
import { actorOfAuthUser } from '../domain/events';
import { staffUserId } from '../domain/scope';
import { ApiError } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { importRejectCsvColumns } from '../http/csv-columns';
import { ok } from '../http/errors';
import { routeSet } from '../http/route';
import type { AppEnv } from '../types';

/** Rows staged per insert while the file streams in. */
const STAGE_BATCH = 1000;

type ImportRow = typeof customerImports.$inferSelect;

export const toImportJob = (r: ImportRow): ImportJob => ({
  id: r.id,
  state: r.state,
  fileName: r.fileName,
  format: r.format,
  rowsRead: r.rowsRead,
  rowsDone: r.created + r.updated + r.unchanged + r.rejected,
  created: r.created,
  updated: r.updated,
  unchanged: r.unchanged,
  rejected: r.rejected,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

const formatOf = (contentType: string | undefined): 'csv' | 'ndjson' | null => {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/csv' || type === 'application/csv') return 'csv';
  if (type === 'application/x-ndjson' || type === 'application/ndjson' || type === 'application/jsonl')
    return 'ndjson';
  return null;
};

/** A row read from the file: its number (the header is row 1), its fields, and the row as sent. */
type ReadRow = { rowNumber: number; fields: Partial<Record<ImportField, unknown>>; raw: string };

/** A 400 that cancels the upload. */
const refuse = (message: string, fieldName = 'file') => new ApiError(400, message, [{ fieldName, message }]);

/**
 * The request body as a Node stream, counted: over MAX_IMPORT_BYTES it fails with a 413, a line
 * over MAX_IMPORT_LINE_BYTES with a 400 (the parsers would hold such a line whole in memory).
 */
function bodyStream(c: Context<AppEnv>, maxBytes: number): Readable {
  const body = c.req.raw.body;
  if (!body) throw refuse(msg.empty);
  let size = 0;
  let first = true;
  let line = 1;
  let lineBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new ApiError(413, msg.tooLarge));
      // A NUL byte in the first chunk: a binary file (a spreadsheet, an archive), not text.
      if (first && chunk.subarray(0, 8192).includes(0)) return done(refuse(msg.notCsv));
      for (let from = 0; ; ) {
        const nl = chunk.indexOf(10, from);
        lineBytes += (nl === -1 ? chunk.length : nl) - from;
        if (lineBytes > MAX_IMPORT_LINE_BYTES) return done(refuse(msg.lineTooLong(line)));
        if (nl === -1) break;
        line++;
        lineBytes = 0;
        from = nl + 1;
      }
      first = false;
      done(null, chunk);
    },
  });
  const source = Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>);
  source.on('error', (err) => counter.destroy(err));
  return source.pipe(counter);
}

/** How the header's columns are read: unknown ones skipped or refused, and the console's mapping. */
type ColumnRules = { ignoreUnknown: boolean; mapping: ImportMapping };

/**
 * The field each column holds (null: skipped), or a 400 naming the problem. Headers are matched by
 * name; the mapping names what some columns hold instead ('ignore': skipped).
 */
function columnsOf(header: string[], { ignoreUnknown, mapping }: ColumnRules): (ImportField | null)[] {
  const cells = header.map((h) => h.trim());
  if (cells.every((h) => h === '')) throw refuse(msg.empty);
  const absent = Object.keys(mapping).filter((name) => !cells.includes(name.trim()));
  if (absent.length) throw refuse(msg.mappingUnknownColumns(absent), 'mapping');
  const mapped = new Map(Object.entries(mapping).map(([name, target]) => [name.trim(), target]));
  const fields = cells.map((h) => {
    const target = mapped.get(h);
    return target === undefined ? importFieldOf(h) : target === 'ignore' ? null : target;
  });
  const unknown = cells.filter((h, i) => fields[i] === null && h !== '' && !mapped.has(h));
  if (unknown.length && !ignoreUnknown) throw refuse(msg.unknownColumns(unknown));
  const seen = new Set<ImportField>();
  for (const f of fields) {
    if (f && seen.has(f)) throw refuse(msg.duplicateColumn(f));
    if (f) seen.add(f);
  }
  const missing = REQUIRED_IMPORT_FIELDS.filter((f) => !seen.has(f));
  if (missing.length) throw refuse(msg.missingColumns(missing));
  return fields;
}

/** The rows of a CSV file, header first checked; CSV errors become a 400 naming the line. */
async function* csvRows(input: Readable, rules: ColumnRules): AsyncGenerator<ReadRow> {
  const parser = input.pipe(
    parseCsv({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
      // A quote left open would gather the rest of the file into one field.
      max_record_size: MAX_IMPORT_LINE_BYTES,
    }),
  );
  input.on('error', (err) => parser.destroy(err));
  let columns: (ImportField | null)[] | null = null;
  let rowNumber = 1;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      if (!columns) {
        columns = columnsOf(item.record, rules);
        continue;
      }
      rowNumber++;
      const fields: Partial<Record<ImportField, unknown>> = {};
      columns.forEach((f, i) => {
        if (f) fields[f] = item.record[i];
      });
      yield { rowNumber, fields, raw: item.raw.replace(/(\r\n|\n|\r)$/, '') };
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const e = err as { code?: string; message?: string; lines?: number };
    if (typeof e.code === 'string' && e.code.startsWith('CSV_'))
      throw refuse(`The file is not valid CSV near line ${e.lines ?? '?'}: ${e.message ?? e.code}`);
    throw err;
  }
  if (!columns) throw refuse(msg.empty);
}

/** The rows of an NDJSON file: one JSON object per line (blank lines skipped). */
async function* ndjsonRows(
  input: Readable,
): AsyncGenerator<ReadRow | { rowNumber: number; error: string; raw: string }> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let rowNumber = 0;
  for await (const line of lines) {
    const text = rowNumber === 0 ? line.replace(/^\uFEFF/, '') : line;
    if (text.trim() === '') continue;
    rowNumber++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { rowNumber, error: 'This line is not JSON: each line must be one JSON object', raw: text };
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      yield { rowNumber, error: 'This line is not a JSON object with the customer fields', raw: text };
      continue;
    }
    const fields: Partial<Record<ImportField, unknown>> = {};
    for (const [k, v] of Object.entries(value)) {
      const f = importFieldOf(k);
      if (f) fields[f] = typeof v === 'number' ? String(v) : v;
    }
    yield { rowNumber, fields, raw: text };
  }
}

/** A row's fields as the record schema takes them: empty cells are absent, status any case. */
function recordOf(fields: Partial<Record<ImportField, unknown>>) {
  const out: Record<string, unknown> = {};
  for (const f of IMPORT_FIELDS) {
    const v = fields[f];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) continue;
    out[f] =
      f === 'status' && typeof v === 'string'
        ? v.trim().toUpperCase()
        : f === 'externalId' && typeof v === 'string'
          ? v.trim()
          : v;
  }
  return out;
}

/** The words of a row's validation errors: 'email: pls provide a valid email; phone: ...'. */
function reasonOf(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const seen = new Set<string>();
  for (const i of issues) {
    const field = String(i.path[0] ?? 'row');
    const missing = i.message === 'Invalid input: expected string, received undefined';
    seen.add(`${field}: ${missing ? 'missing' : i.message}`);
  }
  return [...seen].join('; ');
}

/**
 * Stages the file's rows (valid ones into customer_import_rows, the others straight into the
 * rejects), STAGE_BATCH at a time so memory stays flat whatever the file's size. A repeated
 * external id within the file is a reject naming the row that had it first.
 */
async function stage(
  db: Db,
  clock: () => Date,
  importId: number,
  rows: AsyncIterable<ReadRow | { rowNumber: number; error: string; raw: string }>,
) {
  let read = 0;
  let rejected = 0;
  let valid: { rowNumber: number; externalId: string; record: Record<string, unknown>; raw: string }[] = [];
  let bad: (typeof customerImportRejects.$inferInsert)[] = [];

  const flush = async () => {
    if (valid.length) {
      const inserted = await db
        .insert(customerImportRows)
        .values(valid.map(({ raw: _raw, ...v }) => ({ importId, ...v })))
        .onConflictDoNothing()
        .returning({ rowNumber: customerImportRows.rowNumber });
      const kept = new Set(inserted.map((r) => r.rowNumber));
      const dups = valid.filter((v) => !kept.has(v.rowNumber));
      if (dups.length) {
        const firsts = await db
          .select({ externalId: customerImportRows.externalId, rowNumber: customerImportRows.rowNumber })
          .from(customerImportRows)
          .where(
            and(
              eq(customerImportRows.importId, importId),
              inArray(
                customerImportRows.externalId,
                dups.map((d) => d.externalId),
              ),
            ),
          );
        const firstRow = new Map(firsts.map((f) => [f.externalId, f.rowNumber]));
        for (const d of dups)
          bad.push({
            importId,
            rowNumber: d.rowNumber,
            externalId: d.externalId,
            reason: msg.duplicateInFile(firstRow.get(d.externalId) ?? 0),
            raw: d.raw,
          });
      }
    }
    if (bad.length) await db.insert(customerImportRejects).values(bad).onConflictDoNothing();
    rejected += bad.length;
    await db
      .update(customerImports)
      .set({ rowsRead: read, rejected, updatedAt: clock() })
      .where(eq(customerImports.id, importId));
    valid = [];
    bad = [];
  };

  for await (const row of rows) {
    read++;
    if ('error' in row) {
      bad.push({ importId, rowNumber: row.rowNumber, externalId: null, reason: row.error, raw: row.raw });
    } else {
      const parsed = addCustomerBodySchema.safeParse(recordOf(row.fields));
      if (parsed.success) {
        const { externalId, ...record } = parsed.data;
        valid.push({ rowNumber: row.rowNumber, externalId, record, raw: row.raw });
      } else {
        const id = row.fields.externalId;
        bad.push({
          importId,
          rowNumber: row.rowNumber,
          externalId: typeof id === 'string' && id !== '' ? id.slice(0, 64) : null,
          reason: reasonOf(parsed.error.issues),
          raw: row.raw,
        });
      }
    }
    if (valid.length + bad.length >= STAGE_BATCH) await flush();
  }
  await flush();
  return read;
}

/**
 * /admin/customers/imports (issue 27, docs/decisions/051): the upload stages the file and answers
 * the job; the worker (server/customer-import-worker.ts) applies it. Club-scoped, customers.import,
 * callable with a club key holding customers.write.
 */
type ImportQuery = z.output<typeof importQuerySchema>;

export function customerImportRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  const maxBytes = ctx.config.importMaxBytes ?? MAX_IMPORT_BYTES;
  const heartbeatMs = ctx.imports?.heartbeatMs ?? UPLOAD_HEARTBEAT_MS;

  const loadJob = async (id: number) => {
    const [row] = await db.select().from(customerImports).where(eq(customerImports.id, id)).limit(1);
    if (!row) throw new ApiError(404, msg.notFound);
    return row;
  };

  /** The `mapping` query parameter, parsed and checked (a 400 at `mapping`). */
  const mappingOf = (text: string | undefined): ImportMapping => {
    if (text === undefined || text.trim() === '') return {};
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw refuse(msg.mappingInvalid, 'mapping');
    }
    const parsed = importMappingSchema.safeParse(value);
    if (!parsed.success) throw refuse(msg.mappingInvalid, 'mapping');
    return parsed.data;
  };

  /**
   * Creates a job and stages the request's file into it (every row validated; the bad ones and
   * repeated external ids straight into its rejects). A refused file leaves nothing behind.
   */
  const receive = async (c: Context<AppEnv>, query: ImportQuery) => {
    const format = formatOf(c.req.header('content-type'));
    if (!format) throw refuse(msg.contentType);
    const length = Number(c.req.header('content-length') ?? Number.NaN);
    if (length > maxBytes) throw new ApiError(413, msg.tooLarge);
    if (length === 0) throw refuse(msg.empty);
    const rules: ColumnRules = {
      ignoreUnknown: query.unknownColumns === 'ignore',
      mapping: mappingOf(query.mapping),
    };
    const user = c.get('user');
    const now = ctx.clock();
    const meta = requestMeta(c, ctx.config.trustProxy);
    const [job] = await db
      .insert(customerImports)
      .values({
        fileName: query.fileName || (format === 'csv' ? 'customers.csv' : 'customers.ndjson'),
        format,
        createdBy: staffUserId(user),
        clubKeyId: user.apiKey?.kind === 'club' ? user.apiKey.id : null,
        actor: { ...actorOfAuthUser(user), meta },
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    // While the file streams in (and, for a dry run, while its rows are decided), the job shows it
    // is alive even between batches (a slow sender): a job silent for ABANDONED_UPLOAD_MS was cut
    // off, and the worker's sweep marks it failed and deletes its staged rows. The caller ends the
    // heartbeat (`release`) once the job is queued or gone.
    const beat = () =>
      db
        .update(customerImports)
        .set({ updatedAt: ctx.clock() })
        .where(and(eq(customerImports.id, job!.id), eq(customerImports.state, 'receiving')))
        .catch(() => undefined);
    // A first beat at once: the insert may have waited (a busy pool) past the job's own time.
    void beat();
    const heartbeat = setInterval(beat, heartbeatMs);
    const release = () => clearInterval(heartbeat);
    try {
      const input = bodyStream(c, maxBytes);
      const rows = format === 'csv' ? csvRows(input, rules) : ndjsonRows(input);
      const read = await stage(db, ctx.clock, job!.id, rows);
      if (read === 0) throw refuse(format === 'csv' ? msg.noRows : msg.empty);
    } catch (err) {
      release();
      // Nothing of a refused file stays: the job and its staged rows go.
      await db.delete(customerImports).where(eq(customerImports.id, job!.id));
      throw err;
    }
    return { job: job!, release };
  };

  return routeSet(guards)
    .on('POST /admin/customers/imports', async (c) => {
      const { job, release } = await receive(c, c.req.valid('query'));
      // Queued only if still 'receiving': a job the sweep took for a dead upload (a stall longer
      // than the cut-off) lost the rows staged before it; applying the rest would be half a file.
      const [queued] = await db
        .update(customerImports)
        .set({ state: 'queued', updatedAt: ctx.clock() })
        .where(and(eq(customerImports.id, job.id), eq(customerImports.state, 'receiving')))
        .returning()
        .finally(release);
      if (!queued) {
        await db.delete(customerImportRows).where(eq(customerImportRows.importId, job.id));
        throw new ApiError(503, msg.uploadInterrupted);
      }
      ctx.imports?.kick();
      return ok(c, toImportJob(queued!), msg.started, 201);
    })
    .on('POST /admin/customers/imports/dry-run', async (c) => {
      // The file is staged like a real import (same reading, same memory bound), decided without
      // writing a customer, then the job goes: the worker never sees it ('receiving' is never
      // claimed; a server stopped mid-way leaves it to the cut-off upload sweep).
      // The job stays alive (its heartbeat) until the answer is made: deciding 100,000 staged rows
      // takes longer than the cut-off, and a sweep taking the job for a dead upload would delete
      // the rows not yet decided (the dry run then counted only the rows before them).
      const { job, release } = await receive(c, c.req.valid('query'));
      try {
        const decided = await dryRunStaged(db, job.id);
        const [staged] = await db.select().from(customerImports).where(eq(customerImports.id, job.id));
        // Taken for dead anyway (a stall longer than the cut-off): its rows went, the counts would
        // be short. No answer rather than a wrong one.
        if (staged?.state !== 'receiving') throw new ApiError(503, msg.dryRunInterrupted);
        const first = await db
          .select()
          .from(customerImportRejects)
          .where(eq(customerImportRejects.importId, job.id))
          .orderBy(asc(customerImportRejects.rowNumber))
          .limit(DRY_RUN_REJECTS);
        const result: ImportDryRun = {
          fileName: job.fileName,
          format: job.format,
          rowsRead: staged.rowsRead,
          ...decided,
          rejected: staged.rejected + decided.rejected,
          rejects: first.map((r) => ({ row: r.rowNumber, externalId: r.externalId, reason: r.reason })),
        };
        return ok(c, result, msg.dryRun);
      } finally {
        release();
        await db.delete(customerImports).where(eq(customerImports.id, job.id));
      }
    })
    .on('GET /admin/customers/imports/{id}', async (c) =>
      ok(c, toImportJob(await loadJob(c.req.valid('param').id))),
    )
    .on('GET /admin/customers/imports/{id}/rejects', async (c) => {
      const job = await loadJob(c.req.valid('param').id);
      const csv = stringify({
        header: true,
        bom: true,
        record_delimiter: 'windows',
        columns: importRejectCsvColumns.map((col) => col.header),
        // Formulas defused (docs/decisions/017): a cell starting with = + - @ is read as text.
        cast: { string: (v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v) },
      });
      const pageSize = 2000;
      void (async () => {
        try {
          // Keyset pages by row number (the primary key's order): each page starts where the last
          // ended, so a file with 100,000 rejects costs no more per page at its end than at its start.
          for (let after = 0; ; ) {
            const page = await db
              .select()
              .from(customerImportRejects)
              .where(
                and(eq(customerImportRejects.importId, job.id), gt(customerImportRejects.rowNumber, after)),
              )
              .orderBy(asc(customerImportRejects.rowNumber))
              .limit(pageSize);
            for (const r of page) {
              const row = { row: r.rowNumber, externalId: r.externalId, reason: r.reason, raw: r.raw };
              if (!csv.write(importRejectCsvColumns.map((col) => col.value(row) ?? '')))
                await new Promise((resolve) => csv.once('drain', resolve));
            }
            if (page.length < pageSize) break;
            after = page[page.length - 1]!.rowNumber;
          }
          csv.end();
        } catch (err) {
          csv.destroy(err as Error);
        }
      })();
      const name = `import-${job.id}-rejects.csv`;
      return new Response(Readable.toWeb(csv) as unknown as ReadableStream, {
        status: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${name}"`,
        },
      });
    }).router;
}
