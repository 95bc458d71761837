import { useActorRef, useSelector } from '@xstate/react';
import type { PermissionName } from '../../contract/permissions';
import { css } from '../../styled-system/css';
import type { DownloadOptions, ExportedFile, ExportProgress } from '../api/export';
import { formatCount } from '../lib/format';
import { useOnline } from '../lib/network-status';
import { saveFile } from '../lib/save-file';
import { useCan } from '../lib/use-can';
import { exportMachine } from '../machines/export.machine';
import { Button } from './ui/button';
import { notify } from './ui/notify';

export const EXPORT_LABEL = 'Export CSV';

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

/**
 * The Export button of a list's toolbar (issue 9): downloads every row the list's filters, search and
 * sort match as CSV (`<path>/export`), with the bearer token, showing rows and bytes received and a
 * Cancel; hidden without the list's permission. Offline it says the export needs the network; a
 * failure stays on screen (and as a toast) until the next try. The flow is `exportMachine`'s; this
 * component sends it events and gives it the browser's download and the toasts.
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
  const actor = useActorRef(
    exportMachine.provide({
      actions: {
        save: (_, { file }) => saveFile(file.blob, file.filename),
        announce: (_, { kind, message }) => notify[kind](message),
      },
    }),
  );
  const running = useSelector(actor, (s) => s.matches('running'));
  const progress = useSelector(actor, (s) => s.context.progress);
  const error = useSelector(actor, (s) => (s.matches('failed') ? s.context.error : null));

  const allowed = (typeof permission === 'string' ? [permission] : permission).some((p) => can(p));
  if (!allowed) return null;

  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
      {running ? (
        <>
          <span role="status" aria-live="polite" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {progressText(progress)}
          </span>
          {progress?.total ? (
            <progress
              aria-label="Export progress"
              max={progress.total}
              value={progress.rows}
              className={css({ w: '24', h: '2' })}
            />
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => actor.send({ type: 'export.cancel' })}>
            Cancel export
          </Button>
        </>
      ) : (
        <Button variant="outline" onClick={() => actor.send({ type: 'export.start', download, online })}>
          {label}
        </Button>
      )}
      {error ? (
        <span role="alert" className={css({ fontSize: 'sm', color: 'red.600' })}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
