/**
 * Stored progress of flow machines (the guided redemption): written after every transition, in this
 * tab's sessionStorage. A reload resumes the flow; another tab, or the same device tomorrow, starts
 * afresh (a half-done redemption never reappears for the next customer); sign-out clears it with
 * the rest of sessionStorage (device wipe, decision 009). The Dexie `flows` table of version 2 is
 * no longer written (schema versions are additive) and is still cleared at sign-out.
 */
export function flowStore(
  storage: Storage | null = typeof sessionStorage === 'undefined' ? null : sessionStorage,
) {
  const key = (id: string) => `flow:${id}`;
  return {
    async load<T>(id: string): Promise<T | null> {
      try {
        const raw = storage?.getItem(key(id));
        return raw ? (JSON.parse(raw) as T) : null;
      } catch {
        return null;
      }
    },
    async save(id: string, progress: unknown): Promise<void> {
      if (progress === null) storage?.removeItem(key(id));
      else storage?.setItem(key(id), JSON.stringify(progress));
    },
    async clear(id: string): Promise<void> {
      storage?.removeItem(key(id));
    },
  };
}
