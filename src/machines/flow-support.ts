/** The browser's online/offline events, forwarded by the UI (`navigator.onLine` gives the start value). */
export type NetworkEvent = { type: 'network.offline' } | { type: 'network.online' };

/** Where a machine starts: the given flag, else `navigator.onLine`, else online. */
export const startsOnline = (flag: boolean | undefined): boolean =>
  flag ?? (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

/**
 * A `linkBack` effect (issue 17): probes every `everyMs` and resolves once a probe answers after
 * at least one did not (the link was down and is back). A link that never went down does not
 * resolve it: the caller's own backoff governs then. Stops when the signal aborts.
 */
export function waitForLinkBack(
  probe: () => Promise<boolean>,
  { everyMs = 1000, signal }: { everyMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  return new Promise((resolve) => {
    let down = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (signal?.aborted) return;
      const up = await probe().catch(() => false);
      if (signal?.aborted) return;
      if (up && down) return resolve();
      if (!up) down = true;
      timer = setTimeout(tick, everyMs);
    };
    signal?.addEventListener('abort', () => clearTimeout(timer));
    timer = setTimeout(tick, everyMs);
  });
}
