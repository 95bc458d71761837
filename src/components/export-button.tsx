import { useEffect, useRef, useState } from 'react';
import type { PermissionName } from '../../contract/permissions';
import { css } from '../../styled-system/css';
import { ApiError, NETWORK_ERROR } from '../api/client';
import type { DownloadOptions, ExportedFile, ExportProgress } from '../api/export';
import { errorSentence } from '../lib/error-message';
import { formatCount } from '../lib/format';
import { useOnline } from '../lib/network-status';
import { useCan } from '../lib/use-can';
import { Button } from './ui/button';
import { notify } from './ui/notify';

export const EXPORT_LABEL = 'Export CSV';
export const EXPORT_NEEDS_NETWORK = 'Export needs the network. Connect and try again.';

/** '1.2 MB', '350 KB': the bytes received so far. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** 'Exporting 12,000 of 100,000 rows (1.5 MB)'. */
export function progressText(p: ExportProgress | null): string {
  if (!p) return 'Exporting…';
  const rows = p.total !== null ? `${formatCount(p.rows)} of ${formatCount(p.total)}` : formatCount(p.rows);
  return `Exporting ${rows} rows (${formatBytes(p.bytes)})`;
}

/** Hands a downloaded file to the browser as a download (an object URL on a temporary link). */
function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

type State =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ExportProgress | null }
  | { kind: 'failed'; message: string };

/**
 * The Export button of a list's toolbar (issue 9): downloads every row the list's filters, search and
 * sort match as CSV (`<path>/export`), with the bearer token, showing rows and bytes received and a
 * Cancel; hidden without the list's permission. Offline it says the export needs the network; a
 * failure stays on screen (and as a toast) until the next try.
 */
export function ExportButton({
  download,
  permission,
  label = EXPORT_LABEL,
}: {
  /** The list's export (src/api), bound to the list's current filters, search and sort. */
  download: (opts: DownloadOptions) => Promise<ExportedFile>;
  /** The list's own permission(s): the button shows for a holder of any one. */
  permission: PermissionName | readonly PermissionName[];
  label?: string;
}) {
  const can = useCan();
  const online = useOnline();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const allowed = (typeof permission === 'string' ? [permission] : permission).some((p) => can(p));
  if (!allowed) return null;

  const start = async () => {
    if (!online) {
      setState({ kind: 'failed', message: EXPORT_NEEDS_NETWORK });
      notify.error(EXPORT_NEEDS_NETWORK);
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: 'running', progress: null });
    try {
      const file = await download({
        signal: controller.signal,
        onProgress: (progress) => setState({ kind: 'running', progress }),
      });
      saveFile(file.blob, file.filename);
      setState({ kind: 'idle' });
      notify.success(`Exported ${formatCount(file.rows)} rows to ${file.filename}`);
    } catch (error) {
      if (controller.signal.aborted) {
        setState({ kind: 'idle' });
        return;
      }
      const message =
        error instanceof ApiError && error.message === NETWORK_ERROR
          ? `Export failed: ${NETWORK_ERROR}. Check the connection and try again.`
          : `Export failed: ${errorSentence(error)}`;
      setState({ kind: 'failed', message });
      notify.error(message);
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  };

  const running = state.kind === 'running';
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
      {running ? (
        <>
          <span role="status" aria-live="polite" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {progressText(state.progress)}
          </span>
          {state.progress?.total ? (
            <progress
              aria-label="Export progress"
              max={state.progress.total}
              value={state.progress.rows}
              className={css({ w: '24', h: '2' })}
            />
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => abort.current?.abort()}>
            Cancel export
          </Button>
        </>
      ) : (
        <Button variant="outline" onClick={() => void start()}>
          {label}
        </Button>
      )}
      {state.kind === 'failed' ? (
        <span role="alert" className={css({ fontSize: 'sm', color: 'red.600' })}>
          {state.message}
        </span>
      ) : null}
    </div>
  );
}
