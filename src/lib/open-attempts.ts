/**
 * Money calls whose outcome is not known yet (issue 17): the request was sent, no answer came back,
 * so it may or may not have been applied. The attempt (its exact request and Idempotency-Key) is
 * kept here, per reward, until an answer settles it; any next try for that reward (Confirm again,
 * Back then Confirm, a reload, a new code) first sends this same request again under the same key:
 * the server answers a request it already applied with its first answer, so nothing is charged twice.
 * localStorage, so a reload keeps it; the sign-out wipe removes it with the rest of the user's data.
 */

const KEY = 'money-attempts';

type Store = Record<string, unknown>;

const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage);

const readAll = (): Store => {
  try {
    const parsed = JSON.parse(storage()?.getItem(KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Store) : {};
  } catch {
    return {};
  }
};

/** Attempts that did not fit in localStorage (a large image in an issue): kept for this page's life. */
const inMemory = new Map<string, unknown>();

const writeAll = (all: Store) => {
  if (Object.keys(all).length === 0) storage()?.removeItem(KEY);
  else storage()?.setItem(KEY, JSON.stringify(all));
};

/** Which call for which reward: `redeem:7:GC-1`. */
export const attemptId = (kind: 'redeem' | 'issue', ...parts: (string | number)[]) =>
  [kind, ...parts].join(':');

export function readOpenAttempt<T>(id: string): T | null {
  return ((inMemory.get(id) ?? readAll()[id]) as T | undefined) ?? null;
}

export function keepOpenAttempt(id: string, request: unknown): void {
  try {
    writeAll({ ...readAll(), [id]: request });
    inMemory.delete(id);
  } catch {
    // Over the storage quota: kept in memory, so at least this page never sends it twice.
    inMemory.set(id, request);
  }
}

export function closeOpenAttempt(id: string): void {
  inMemory.delete(id);
  const all = readAll();
  delete all[id];
  writeAll(all);
}

/**
 * A refusal settles an attempt: the server answered 4xx, so nothing was applied. No answer (status
 * 0), 408, 429, a 5xx or a 409 for a request still in progress under the same key do not.
 */
export const isSettledRefusal = (error: unknown): boolean => {
  const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return false;
  if (status === 408 || status === 429) return false;
  // A 409 is 'in progress' unless the server says it is another conflict (a blocked partner ...).
  if (status === 409) return typeof code === 'string' && code !== 'idempotency_in_progress';
  return true;
};

/**
 * Sends a money call so that it is applied at most once whatever happened to earlier tries: when an
 * attempt for `id` is still open (sent before, no answer), that exact request (same
 * Idempotency-Key) is sent first; the server replays its first answer if it had applied it, or
 * applies it now. Only when that open attempt is refused (nothing applied) does `request` go, kept
 * open in its turn until an answer settles it. `reconciled`: the answer is the earlier attempt's.
 */
export async function sendSettlingOpenAttempt<Req extends { idempotencyKey: string }, Res>(
  id: string,
  request: Req,
  send: (request: Req) => Promise<Res>,
): Promise<{ output: Res; reconciled: boolean }> {
  const open = readOpenAttempt<Req>(id);
  if (open) {
    try {
      const output = await send(open);
      closeOpenAttempt(id);
      return { output, reconciled: true };
    } catch (error) {
      if (!isSettledRefusal(error)) throw error;
      closeOpenAttempt(id);
      // The same attempt was just refused: sending it again would be refused again.
      if (open.idempotencyKey === request.idempotencyKey) throw error;
    }
  }
  keepOpenAttempt(id, request);
  try {
    const output = await send(request);
    closeOpenAttempt(id);
    return { output, reconciled: false };
  } catch (error) {
    if (isSettledRefusal(error)) closeOpenAttempt(id);
    throw error;
  }
}
