import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { ApiError } from '../../src/lib/api-error';
import { type ExportContext, exportMachine } from '../../src/machines/export.machine';
import type { FlowModel } from './flow-engine';

/**
 * A list's CSV export, the Export button's flow (issue 9, decision 017 and 058): the expectations
 * are the product's texts, written here, not read from the machine. Shared by
 * tests/model/export.test.ts and the browser walk (tests/flows/walks/export.walk.ts).
 */

/** Offline, the export says so at once and sends nothing (decision 017). */
export const NEEDS_NETWORK = 'Export needs the network. Connect and try again.';
/** The connection drops: what the button and the toast say. */
export const NETWORK_FAILURE = 'Export failed: Network Error. Check the connection and try again.';
/** The server refuses: its sentence after "Export failed: ". */
export const serverError = new ApiError(500, 'The export could not be made. Try again later.');
export const SERVER_FAILURE = 'Export failed: The export could not be made. Try again later.';
export const networkError = new ApiError(0, 'Network Error');

/** The model's download never settles by itself: the path's events say how it goes. */
const download = () => new Promise<never>(() => {});
export const exportedFile = {
  blob: new Blob(['id,title\n1,Free Wi-Fi\n']),
  filename: 'extended-services.csv',
  rows: 1,
};
export const someProgress = { rows: 1, bytes: 24, total: 3 };

export const exportModel: FlowModel<typeof exportMachine> = {
  name: 'export',
  title: "A list's CSV export (the Export button)",
  machine: exportMachine,
  starts: [{ label: 'A list with its Export button', input: undefined }],
  events: (s) =>
    s.matches('running')
      ? ([
          { type: 'export.progress', progress: someProgress },
          { type: 'export.done', file: exportedFile },
          { type: 'export.error', error: networkError },
          { type: 'export.error', error: serverError },
          { type: 'export.cancel' },
          { type: 'export.start', download, online: true },
        ] as Array<EventObject & Record<string, unknown>>)
      : ([
          { type: 'export.start', download, online: true },
          { type: 'export.start', download, online: false },
        ] as Array<EventObject & Record<string, unknown>>),
  abstract: (s) => {
    const c = s.context as ExportContext;
    return { error: c.error, progress: c.progress !== null };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { online?: boolean; error?: ApiError };
    if (e.type === 'export.start') return `${e.type} ${ev.online ? 'online' : 'offline'}`;
    if (e.type === 'export.error') return `${e.type} ${ev.error?.status}`;
    return e.type;
  },
  describeEvent: (e) => {
    const ev = e as EventObject & { online?: boolean; error?: ApiError };
    switch (e.type) {
      case 'export.start':
        return ev.online ? 'press Export CSV' : 'press Export CSV while offline';
      case 'export.progress':
        return 'the first rows arrive';
      case 'export.done':
        return 'the whole file arrives';
      case 'export.error':
        return ev.error === networkError ? 'the connection drops' : 'the server refuses (500)';
      case 'export.cancel':
        return 'press Cancel export';
      default:
        return e.type;
    }
  },
  describeState: (s: AnyMachineSnapshot) => {
    const c = s.context as ExportContext;
    if (s.matches('running')) return c.progress ? 'exporting, rows counted' : 'exporting';
    if (s.matches('failed')) return `failed: "${c.error ?? ''}"`;
    return 'the Export CSV button';
  },
};
