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

const writeAll = (all: Store) => {
  if (Object.keys(all).length === 0) storage()?.removeItem(KEY);
  else storage()?.setItem(KEY, JSON.stringify(all));
};

/** Which call for which reward: `redeem:7:GC-1`. */
export const attemptId = (kind: 'redeem' | 'issue', ...parts: (string | number)[]) =>
  [kind, ...parts].join(':');

export function readOpenAttempt<T>(id: string): T | null {
  return (readAll()[id] as T | undefined) ?? null;
}

export function keepOpenAttempt(id: string, request: unknown): void {
  writeAll({ ...readAll(), [id]: request });
}

export function closeOpenAttempt(id: string): void {
  const all = readAll();
  delete all[id];
  writeAll(all);
}
