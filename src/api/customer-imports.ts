import { queryOptions } from '@tanstack/react-query';
import type { ImportDryRun, ImportJob, ImportMapping } from '../../contract/customer-sync';
import { apiData } from './call';
import { api } from './client';

/**
 * The console's customer import (issue 27, docs/decisions/051 and 062): the chosen File goes up as
 * the request body (the browser streams it from disk: never read into a string here), with the
 * column mapping as the `mapping` query parameter.
 */

/** Staging a large file takes longer than a usual call may wait. */
const UPLOAD_TIMEOUT_MS = 30 * 60_000;

const importQuery = (file: File, mapping: ImportMapping) => ({
  fileName: file.name,
  ...(Object.keys(mapping).length ? { mapping: JSON.stringify(mapping) } : {}),
});

const csvBody = (file: File) => ({ body: file, contentType: 'text/csv' as const });

/** What importing the file would do (counts and the first rejects); nothing is applied. */
export const dryRunImport = (file: File, mapping: ImportMapping): Promise<ImportDryRun> =>
  apiData('POST /admin/customers/imports/dry-run', {
    query: importQuery(file, mapping),
    file: csvBody(file),
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });

/** Sends the file; the answer is the queued job (applied in the background). */
export const startImport = (file: File, mapping: ImportMapping): Promise<ImportJob> =>
  apiData('POST /admin/customers/imports', {
    query: importQuery(file, mapping),
    file: csvBody(file),
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });

const finished = (job: ImportJob | undefined) => job?.state === 'done' || job?.state === 'failed';

/** The job's state and counts, asked again every second until it is done or failed. */
export const importJobQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['customer-imports', id] as const,
    queryFn: () => apiData('GET /admin/customers/imports/{id}', { params: { id } }),
    refetchInterval: (query) => (finished(query.state.data) ? false : 1000),
  });

/** The job's rejected rows as a CSV file (fetched with the session's token). */
export async function downloadImportRejects(id: number): Promise<{ blob: Blob; filename: string }> {
  const res = await api().download(`/admin/customers/imports/${id}/rejects`);
  const filename =
    /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ??
    `import-${id}-rejects.csv`;
  return { blob: await res.blob(), filename };
}
