import { countCsvRecords, newCsvCounter } from '../lib/csv-records';
import { ApiError, api, type Query } from './client';

/** How far an export has come: rows and bytes received, and the rows the server said it holds. */
export type ExportProgress = { rows: number; bytes: number; total: number | null };

export type ExportedFile = { blob: Blob; filename: string; rows: number };

export const EXPORT_INTERRUPTED = 'The export stopped before the end: the connection was lost. Try again.';

/**
 * Downloads a list's CSV export (`<list path>/export` with the list's filters, search and sort),
 * reading the body as it streams in so `onProgress` can show rows and bytes; the file is handed
 * back whole. A broken connection mid-way is an error (a server that fails mid-way breaks the
 * connection too, decision 017): a partial file is never offered as the export. `total` is for the
 * progress only (rows added or removed meanwhile may make the file differ from it).
 */
export type DownloadOptions = { onProgress?: (p: ExportProgress) => void; signal?: AbortSignal };

export async function downloadCsv(
  path: string,
  query: Query,
  opts: DownloadOptions = {},
): Promise<ExportedFile> {
  // Paging does not apply: the export holds every matching row.
  const { pageNumber: _page, pageSize: _size, ...filters } = query;
  const res = await api().download(path, { query: filters, signal: opts.signal });
  const announced = res.headers.get('X-Total-Count');
  const total = announced === null ? null : Number(announced);
  const filename =
    /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'export.csv';
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const decoder = new TextDecoder();
  let counter = newCsvCounter();
  let bytes = 0;
  const rowsOf = () => Math.max(0, counter.records - 1);
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
      try {
        step = await reader.read();
      } catch (error) {
        if (opts.signal?.aborted) throw error;
        throw new ApiError(0, EXPORT_INTERRUPTED);
      }
      if (step.done) break;
      chunks.push(step.value);
      bytes += step.value.byteLength;
      counter = countCsvRecords(counter, decoder.decode(step.value, { stream: true }));
      opts.onProgress?.({ rows: rowsOf(), bytes, total });
    }
  }
  return { blob: new Blob(chunks, { type: 'text/csv;charset=utf-8' }), filename, rows: rowsOf() };
}
