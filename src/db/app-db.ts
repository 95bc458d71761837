import Dexie, { type EntityTable } from 'dexie';

/** One cached query result, persisted per query (filled by the query persister of a later issue). */
export interface CachedQuery {
  key: string;
  state: unknown;
  buster: string;
  updatedAt: number;
}

/** One pending mutation, replayed in order when the network returns (outbox machine, later issue). */
export interface OutboxEntry {
  id?: number;
  idempotencyKey: string;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body: unknown;
  createdAt: number;
}

/** A flow machine's stored progress (e.g. the guided redemption), restored after a reload. */
export interface StoredFlow {
  /** The flow and whose it is, e.g. 'guided-redemption:partner-3'. */
  id: string;
  progress: unknown;
  updatedAt: number;
}

/** The SPA's IndexedDB. Versions are additive: add `this.version(2)`, never edit version 1. */
export class AppDb extends Dexie {
  queries!: EntityTable<CachedQuery, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'id'>;
  flows!: EntityTable<StoredFlow, 'id'>;

  constructor(name = 'reward-club-admin') {
    super(name);
    this.version(1).stores({
      queries: 'key, updatedAt',
      outbox: '++id, &idempotencyKey, createdAt',
    });
    // Version 2: the progress of flow machines (issue 5).
    this.version(2).stores({ flows: 'id, updatedAt' });
  }

  /** Logout: nothing of the signed-out user may stay in the browser. */
  async clearUserData(): Promise<void> {
    await this.transaction('rw', [this.queries, this.outbox, this.flows], async () => {
      await Promise.all([this.queries.clear(), this.outbox.clear(), this.flows.clear()]);
    });
  }
}

export const appDb = new AppDb();
