import { readFileSync } from 'node:fs';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { ListData } from '../../../contract/envelope';
import { exportMachine } from '../../../src/machines/export.machine';
import {
  exportModel,
  NEEDS_NETWORK,
  NETWORK_FAILURE,
  networkError,
  SERVER_FAILURE,
  serverError,
} from '../../model/export-model';
import { expect, type MachineWalk, type WalkContext } from '../walk-kit';

/**
 * The Export button walked on the Extended Services list: the export's request is held at the
 * browser's edge until the path says how it ends (the real server's file, a dropped connection,
 * a refusal given from the model's fixture); offline is the browser's own network switched off.
 * Expected texts are the model's (the product's sentences), the row count the server's list total.
 */

const LIST = '/dashboard/extservices';
const exportButton = (w: WalkContext) => w.page.getByRole('button', { name: 'Export CSV' });
const cancelButton = (w: WalkContext) => w.page.getByRole('button', { name: 'Cancel export' });
const failure = (w: WalkContext) => w.page.getByRole('alert').filter({ hasText: /^Export / });

/** How many extended services the server lists: the rows a whole export holds. */
async function serverTotal(w: WalkContext): Promise<number> {
  const list = await w.api.call<ListData<unknown>>(
    'GET',
    '/admin/partners/extended-services?page=1&pageSize=10',
  );
  return list.meta.totalCount;
}

export const walk: MachineWalk = {
  file: 'export',
  machine: exportMachine,
  model: exportModel,
  effects: {
    download: { method: 'GET', path: /\/admin\/partners\/extended-services\/export$/ },
  },
  // Reads only: beside the reversal walk.
  lane: 0,
  offers: (s, e) => e.type !== 'export.progress' && !(s.matches('running') && e.type === 'export.start'),
  unreachable: {
    'export.running export.progress #0':
      'the edge answers a held request whole, so progress and the end arrive together; tests/e2e/export.spec.ts sees the progress on a throttled link',
    'export.running export.start #0':
      'while an export runs the button is Cancel export: a second start cannot be pressed',
  },
  begin: async (w) => {
    w.data.total = await serverTotal(w);
    await w.page.goto(LIST);
    await expect(exportButton(w)).toBeVisible();
  },
  step: async (w, event: EventObject & Record<string, unknown>) => {
    const page = w.page;
    switch (event.type) {
      case 'export.start':
        w.data.expected = null;
        if (event.online) return exportButton(w).click();
        // Offline: the browser's network off while the button is pressed, then back on (the
        // refusal stays on screen until the next try).
        w.data.sentBefore = w.edge.sent;
        w.data.expected = NEEDS_NETWORK;
        await w.context.setOffline(true);
        await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
        await exportButton(w).click();
        await expect(failure(w)).toHaveText(NEEDS_NETWORK);
        return w.context.setOffline(false);
      case 'export.cancel':
        return cancelButton(w).click();
      case 'export.done': {
        const download = page.waitForEvent('download');
        await w.edge.pass('download');
        w.data.file = await (await download).path();
        return;
      }
      case 'export.error':
        w.data.expected = event.error === networkError ? NETWORK_FAILURE : SERVER_FAILURE;
        return w.edge.fail(
          'download',
          event.error === networkError
            ? { status: 0, message: 'Network Error' }
            : { status: serverError.status, message: serverError.message },
        );
    }
    throw new Error(`no way to do ${event.type} in the browser`);
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const page = w.page;
    if (s.matches('running')) {
      await expect(cancelButton(w)).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Exporting/ })).toBeVisible();
      return expect.poll(() => w.edge.holding('download'), { message: 'the export is asked for' }).toBe(1);
    }
    if (s.matches('failed')) {
      await expect(failure(w)).toHaveText(String(w.data.expected));
      if (w.data.expected === NEEDS_NETWORK)
        // Refused offline: nothing was sent.
        expect(w.edge.sent).toBe(w.data.sentBefore);
      return expect(exportButton(w)).toBeVisible();
    }
    if (s.matches('idle')) {
      await expect(exportButton(w)).toBeVisible();
      await expect(failure(w)).toHaveCount(0);
      if (w.data.file) {
        // The whole file: a header and one line per extended service the server lists.
        const lines = readFileSync(String(w.data.file), 'utf8').trim().split(/\r?\n/);
        expect(lines.length - 1).toBe(w.data.total);
        const rows = new Intl.NumberFormat('en-US').format(Number(w.data.total));
        await expect(page.getByText(new RegExp(`^Exported ${rows} rows to .+\\.csv$`)).last()).toBeVisible();
        w.data.file = null;
        // The success toast goes by itself; until then a later idle state may still show it.
        await expect(page.getByText(/^Exported /)).toHaveCount(0, { timeout: 15_000 });
        return;
      }
      // Cancelled (or never started): no file saved, no success said since the step.
      return expect(page.getByText(/^Exported /)).toHaveCount(0);
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
};
