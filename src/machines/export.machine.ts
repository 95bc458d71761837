import { assign, fromCallback, setup } from 'xstate';
import type { DownloadOptions, ExportedFile, ExportProgress } from '../api/export';
import { ApiError, NETWORK_ERROR } from '../lib/api-error';
import { errorSentence } from '../lib/error-message';
import { formatCount } from '../lib/format';

/**
 * A list's CSV export (issue 9, decision 017), the Export button's flow: idle → running (rows and bytes
 * received so far, Cancel) → idle with a saved file, or failed with a message that stays until the
 * next try. Offline it fails at once with EXPORT_NEEDS_NETWORK. Leaving `running` (Cancel, or the
 * button unmounting and the actor stopping) aborts the download; an aborted download says nothing.
 * Saving the file and the toasts are the component's (`save`, `announce`, given with `provide`).
 */

export const EXPORT_NEEDS_NETWORK = 'Export needs the network. Connect and try again.';

type Download = (opts: DownloadOptions) => Promise<ExportedFile>;

export interface ExportContext {
  download: Download | null;
  progress: ExportProgress | null;
  /** Why the last try failed; null once a new one starts. */
  error: string | null;
}

export type ExportEvent =
  /** `download` is bound to the list's filters, search and sort at the moment of the click. */
  | { type: 'export.start'; download: Download; online: boolean }
  | { type: 'export.cancel' }
  | { type: 'export.progress'; progress: ExportProgress }
  | { type: 'export.done'; file: ExportedFile }
  | { type: 'export.error'; error: unknown };

/** The sentence a failed export shows (and toasts). */
export function exportFailure(error: unknown): string {
  return error instanceof ApiError && error.message === NETWORK_ERROR
    ? `Export failed: ${NETWORK_ERROR}. Check the connection and try again.`
    : `Export failed: ${errorSentence(error)}`;
}

export const exportMachine = setup({
  types: {
    context: {} as ExportContext,
    events: {} as ExportEvent,
  },
  actions: {
    /** Hands the file to the browser; the component provides it. */
    save: (_, _params: { file: ExportedFile }) => {},
    /** A toast; the component provides it. */
    announce: (_, _params: { kind: 'success' | 'error'; message: string }) => {},
  },
  actors: {
    download: fromCallback<ExportEvent, { download: Download }>(({ input, sendBack }) => {
      const controller = new AbortController();
      input
        .download({
          signal: controller.signal,
          onProgress: (progress) => sendBack({ type: 'export.progress', progress }),
        })
        .then(
          (file) => sendBack({ type: 'export.done', file }),
          (error: unknown) => {
            if (!controller.signal.aborted) sendBack({ type: 'export.error', error });
          },
        );
      return () => controller.abort();
    }),
  },
  guards: {
    offline: ({ event }) => event.type === 'export.start' && !event.online,
  },
}).createMachine({
  id: 'export',
  context: { download: null, progress: null, error: null },
  initial: 'idle',
  on: {
    'export.start': [
      {
        guard: 'offline',
        target: '.failed',
        actions: [
          assign({ error: EXPORT_NEEDS_NETWORK, progress: null }),
          { type: 'announce', params: { kind: 'error', message: EXPORT_NEEDS_NETWORK } },
        ],
      },
      {
        target: '.running',
        actions: assign(({ event }) => ({ download: event.download, progress: null, error: null })),
      },
    ],
  },
  states: {
    idle: {},
    failed: {},
    running: {
      // A second start while running is ignored: the button shows Cancel instead.
      on: {
        'export.start': {},
        'export.cancel': { target: 'idle' },
        'export.progress': { actions: assign({ progress: ({ event }) => event.progress }) },
        'export.done': {
          target: 'idle',
          actions: [
            { type: 'save', params: ({ event }) => ({ file: event.file }) },
            {
              type: 'announce',
              params: ({ event }) => ({
                kind: 'success' as const,
                message: `Exported ${formatCount(event.file.rows)} rows to ${event.file.filename}`,
              }),
            },
          ],
        },
        'export.error': {
          target: 'failed',
          actions: [
            assign({ error: ({ event }) => exportFailure(event.error) }),
            {
              type: 'announce',
              params: ({ event }) => ({ kind: 'error' as const, message: exportFailure(event.error) }),
            },
          ],
        },
      },
      invoke: {
        src: 'download',
        input: ({ context }) => ({ download: context.download as Download }),
      },
    },
  },
});
