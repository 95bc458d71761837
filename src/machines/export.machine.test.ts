import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { DownloadOptions, ExportedFile } from '../api/export';
import { ApiError, NETWORK_ERROR } from '../lib/api-error';
import { EXPORT_NEEDS_NETWORK, exportMachine } from './export.machine';

/** A download the test finishes by hand: it records what the machine handed it. */
function pendingDownload() {
  const calls: DownloadOptions[] = [];
  let settle: { resolve: (f: ExportedFile) => void; reject: (e: unknown) => void } | null = null;
  const download = (opts: DownloadOptions) => {
    calls.push(opts);
    return new Promise<ExportedFile>((resolve, reject) => {
      settle = { resolve, reject };
    });
  };
  return {
    download,
    calls,
    resolve: (f: ExportedFile) => settle?.resolve(f),
    reject: (e: unknown) => settle?.reject(e),
  };
}

function start() {
  const saved: ExportedFile[] = [];
  const toasts: string[] = [];
  const actor = createActor(
    exportMachine.provide({
      actions: {
        save: (_, { file }) => saved.push(file),
        announce: (_, { kind, message }) => toasts.push(`${kind}: ${message}`),
      },
    }),
  ).start();
  return { actor, saved, toasts };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const file = (rows: number): ExportedFile => ({ blob: new Blob(['id\n']), filename: 'partners.csv', rows });

describe('export machine', () => {
  it('offline: fails at once with the network sentence and never downloads', () => {
    const { actor, toasts } = start();
    const d = pendingDownload();
    actor.send({ type: 'export.start', download: d.download, online: false });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('Export needs the network. Connect and try again.');
    expect(EXPORT_NEEDS_NETWORK).toBe('Export needs the network. Connect and try again.');
    expect(toasts).toEqual(['error: Export needs the network. Connect and try again.']);
    expect(d.calls).toHaveLength(0);
  });

  it('running: shows each progress, then saves the file and says how many rows', async () => {
    const { actor, saved, toasts } = start();
    const d = pendingDownload();
    actor.send({ type: 'export.start', download: d.download, online: true });
    expect(actor.getSnapshot().value).toBe('running');
    expect(d.calls).toHaveLength(1);
    d.calls[0]?.onProgress?.({ rows: 500, bytes: 2048, total: 1234 });
    expect(actor.getSnapshot().context.progress).toEqual({ rows: 500, bytes: 2048, total: 1234 });
    // A second click while running starts no second download.
    actor.send({ type: 'export.start', download: d.download, online: true });
    expect(d.calls).toHaveLength(1);
    const done = file(1234);
    d.resolve(done);
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(saved).toEqual([done]);
    expect(toasts).toEqual(['success: Exported 1,234 rows to partners.csv']);
  });

  it('cancel: aborts the download, and the abort it causes says nothing', async () => {
    const { actor, saved, toasts } = start();
    const d = pendingDownload();
    actor.send({ type: 'export.start', download: d.download, online: true });
    const signal = d.calls[0]?.signal;
    expect(signal?.aborted).toBe(false);
    actor.send({ type: 'export.cancel' });
    expect(signal?.aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('idle');
    d.reject(new DOMException('aborted', 'AbortError'));
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(saved).toEqual([]);
    expect(toasts).toEqual([]);
  });

  it('stopping the actor (the button unmounts) aborts a running download', () => {
    const { actor } = start();
    const d = pendingDownload();
    actor.send({ type: 'export.start', download: d.download, online: true });
    actor.stop();
    expect(d.calls[0]?.signal?.aborted).toBe(true);
  });

  it('a lost connection and a refused export each fail with their sentence, until the next try', async () => {
    const { actor, toasts } = start();
    const d = pendingDownload();
    actor.send({ type: 'export.start', download: d.download, online: true });
    d.reject(new ApiError(0, NETWORK_ERROR));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(
      'Export failed: Network Error. Check the connection and try again.',
    );

    actor.send({ type: 'export.start', download: d.download, online: true });
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().context.error).toBeNull();
    d.reject(new ApiError(403, 'You may not export partners.'));
    await flush();
    expect(actor.getSnapshot().context.error).toBe('Export failed: You may not export partners.');
    expect(toasts).toEqual([
      'error: Export failed: Network Error. Check the connection and try again.',
      'error: Export failed: You may not export partners.',
    ]);
  });
});
