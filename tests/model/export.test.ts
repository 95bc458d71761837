import { expect } from 'vitest';
import { fromCallback } from 'xstate';
import { type ExportContext, exportMachine } from '../../src/machines/export.machine';
import {
  exportedFile,
  exportModel,
  NEEDS_NETWORK,
  NETWORK_FAILURE,
  networkError,
  SERVER_FAILURE,
  serverError,
} from './export-model';
import type { FlowHarness } from './flow-runner';
import { modelSuite } from './model-suite';

/** What the machine tells the component to do (save the file, a toast), per step. */
const told: Array<{ action: string; params: unknown }> = [];

const harness: FlowHarness = {
  provide: () => {
    told.length = 0;
    return exportMachine.provide({
      // The download is the path's: its events (progress, done, error) are sent as steps.
      actors: { download: fromCallback(() => () => {}) },
      actions: {
        save: (_, params) => void told.push({ action: 'save', params }),
        announce: (_, params) => void told.push({ action: 'announce', params }),
      },
    });
  },
  check: ({ step, before, after }) => {
    const e = step.event as { type: string; online?: boolean; error?: unknown };
    const c = after.context as ExportContext;
    const said = told.splice(0);
    if (e.type === 'export.start' && !e.online && !before.matches('running')) {
      // Offline: refused at once with the product's sentence, nothing started.
      expect(after.matches('failed')).toBe(true);
      expect(c.error).toBe(NEEDS_NETWORK);
      expect(said).toEqual([{ action: 'announce', params: { kind: 'error', message: NEEDS_NETWORK } }]);
    } else if (e.type === 'export.start' && !before.matches('running')) {
      // A new try forgets the last failure.
      expect(after.matches('running')).toBe(true);
      expect(c.error).toBeNull();
      expect(said).toEqual([]);
    } else if (e.type === 'export.done') {
      expect(after.matches('idle')).toBe(true);
      expect(said).toEqual([
        { action: 'save', params: { file: exportedFile } },
        {
          action: 'announce',
          params: { kind: 'success', message: 'Exported 1 rows to extended-services.csv' },
        },
      ]);
    } else if (e.type === 'export.error') {
      const message = e.error === networkError ? NETWORK_FAILURE : SERVER_FAILURE;
      expect(e.error === networkError || e.error === serverError).toBe(true);
      expect(after.matches('failed')).toBe(true);
      expect(c.error).toBe(message);
      expect(said).toEqual([{ action: 'announce', params: { kind: 'error', message } }]);
    } else if (e.type === 'export.cancel') {
      // Cancel says nothing and saves nothing.
      expect(after.matches('idle')).toBe(true);
      expect(said).toEqual([]);
    } else expect(said).toEqual([]);
  },
};

modelSuite(exportModel, harness);
