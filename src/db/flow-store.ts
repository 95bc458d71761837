import { type AppDb, appDb } from './app-db';

/** Stored progress of flow machines (the guided redemption): written after every transition. */
export function flowStore(db: AppDb = appDb) {
  return {
    async load<T>(id: string): Promise<T | null> {
      return ((await db.flows.get(id))?.progress as T | undefined) ?? null;
    },
    async save(id: string, progress: unknown): Promise<void> {
      if (progress === null) await db.flows.delete(id);
      else await db.flows.put({ id, progress, updatedAt: Date.now() });
    },
    async clear(id: string): Promise<void> {
      await db.flows.delete(id);
    },
  };
}
