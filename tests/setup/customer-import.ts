import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';

/**
 * Customer imports against a real server process (issue 27): a subscriber CSV generated as a stream
 * (never one string: 100,000 rows stay a few KiB in the sender), its upload, the job polled, and the
 * server's peak RSS. Used by server/faults/import-kill.test.ts, server/customer-sync-production.test.ts
 * and tests/bench/import.bench.ts.
 */

export const IMPORT_HEADER = 'externalId,firstName,lastName,email,phone,address,status';

/** Names with their diacritics (Yoruba, Igbo, Hausa): a row's bytes are those of a real export. */
const FIRST = ['Ọlábísí', 'Chíọma', 'Ɗanjuma', 'Adébáyọ̀', 'Ngọzị', 'Ƙaramatu', 'Emeka', 'Fúnmiláyọ̀'];
const LAST = ['Àjàyí', 'Ńwánkwọ', 'Ƙabir', 'Ògúnlèyè', 'Ọkafọ̀', 'Bello', 'Eze', 'Adéwálé'];

/** Row `i` of a subscriber file: external id `${prefix}-${i}`, an email of its own, a phone. */
export function subscriberRow(prefix: string, i: number, email = subscriberEmail(prefix, i)): string {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[(i * 7) % LAST.length]!;
  const phone = `0803${String(i % 10_000_000).padStart(7, '0')}`;
  const status = i % 50 === 0 ? 'BLOCKED' : 'ACTIVE';
  return `${prefix}-${i},${first},${last},${email},${phone},"${i} Ọba Akran Avenue, Ikeja",${status}`;
}

export const subscriberEmail = (prefix: string, i: number) => `${prefix.toLowerCase()}.${i}@mail.test`;
export const subscriberFirstName = (i: number) => FIRST[i % FIRST.length]!;

/**
 * The whole file as a stream, 1,000 rows a chunk: header, then rows 0 .. count-1; `emailOf` gives
 * a row another email (one used by another file's external id, say).
 */
export function subscriberCsv(
  prefix: string,
  count: number,
  emailOf: (i: number) => string | undefined = () => undefined,
): Readable {
  let next = 0;
  return new Readable({
    read() {
      if (next === 0) this.push(`${IMPORT_HEADER}\r\n`);
      if (next >= count) {
        this.push(null);
        return;
      }
      const end = Math.min(count, next + 1000);
      const lines: string[] = [];
      for (let i = next; i < end; i++) lines.push(subscriberRow(prefix, i, emailOf(i)));
      next = end;
      this.push(`${lines.join('\r\n')}\r\n`);
    },
  });
}

export type ImportJobView = {
  id: number;
  state: string;
  rowsRead: number;
  rowsDone: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
  error: string | null;
};

/** POSTs `body` (streamed, chunked) to the import route; the answer's status and job. */
export async function uploadImport(
  baseUrl: string,
  headers: Record<string, string>,
  body: Readable,
  fileName = 'subscribers.csv',
): Promise<{ status: number; job: ImportJobView; text: string }> {
  const res = await fetch(
    `${baseUrl}/api/v1/admin/customers/imports?fileName=${encodeURIComponent(fileName)}`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv' },
      body: Readable.toWeb(body) as unknown as ReadableStream,
      duplex: 'half',
    } as RequestInit,
  );
  const text = await res.text();
  let job = {} as ImportJobView;
  try {
    job = (JSON.parse(text) as { data: ImportJobView }).data;
  } catch {
    // not JSON: the caller shows `text`
  }
  return { status: res.status, job, text };
}

/**
 * A GET sent again when the connection was reset before any answer: a server on PGlite whose event
 * loop a batch holds may close an idle keep-alive socket just as the next poll goes out on it (the
 * fault tests saw ECONNRESET once in a CI run). A GET is safe to repeat; any answer is returned.
 */
async function getWithRetryOnReset(
  url: string,
  headers: Record<string, string>,
  tries = 3,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, { headers });
    } catch (e) {
      const code = (e as { cause?: { code?: string } }).cause?.code;
      if (attempt >= tries || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw e;
    }
  }
}

export async function getImport(
  baseUrl: string,
  headers: Record<string, string>,
  id: number,
): Promise<ImportJobView> {
  const res = await getWithRetryOnReset(`${baseUrl}/api/v1/admin/customers/imports/${id}`, headers);
  if (res.status !== 200) throw new Error(`GET import ${id}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: ImportJobView }).data;
}

/** Polls the job every `everyMs` until `until(job)` holds; throws with the last state after `timeoutMs`. */
export async function waitForImport(
  baseUrl: string,
  headers: Record<string, string>,
  id: number,
  until: (job: ImportJobView) => boolean,
  { timeoutMs = 180_000, everyMs = 100 } = {},
): Promise<ImportJobView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getImport(baseUrl, headers, id);
    if (until(job)) return job;
    if (job.state === 'failed') throw new Error(`import ${id} failed: ${job.error}`);
    if (Date.now() > deadline)
      throw new Error(`import ${id}: condition not met within ${timeoutMs} ms; last ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The process's peak resident set so far (VmHWM), in MiB (Linux). */
export function peakRssMiB(pid: number): number {
  const kb = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? Number.NaN) / 1024;
}

/** Signs in; the bearer header. */
export async function bearerOf(baseUrl: string, email: string, password: string) {
  const res = await fetch(`${baseUrl}/api/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
  const { accessToken } = ((await res.json()) as { data: { accessToken: string } }).data;
  return { authorization: `Bearer ${accessToken}` };
}
