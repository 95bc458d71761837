import Dexie, { type EntityTable, type PromiseExtended } from 'dexie';
import { UserBucket } from './user-bucket';

/** One cached query result, persisted per query (filled by the query persister of a later issue). */
export interface CachedQuery {
  key: string;
  state: unknown;
  buster: string;
  updatedAt: number;
}

/** What an outbox entry changes: the record, so its queries can be refreshed and its versions followed. */
export type OutboxEntity = 'profile' | 'partner' | 'customer' | 'extended-service';

/**
 * One pending mutation, replayed in order when the network returns (src/machines/outbox.machine.ts).
 * Fields after `createdAt` came with version 3 (issue 6).
 */
export interface OutboxEntry {
  id?: number;
  idempotencyKey: string;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body: unknown;
  createdAt: number;
  /** Whose change it is: only the signed-in user's entries are sent. */
  userId?: number;
  /** How the pending-changes panel names it ('Edit partner Eko Grill House'). */
  label?: string;
  entity?: OutboxEntity;
  /** The record's id (null for a creation). */
  entityId?: number | null;
  /** The record's updatedAt as read when it was edited (sent in If-Match); null: no check. */
  baseVersion?: string | null;
  /** 'failed': the server refused it (4xx); it waits for the user to retry or discard it. */
  status?: 'pending' | 'failed';
  error?: string | null;
}

/** An entry as read back from the table: its id is set. */
export type QueuedEntry = OutboxEntry & { id: number };

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

  /** The Storage Bucket the database lives in (decision 009): sign-out deletes it with its files. */
  readonly bucket: UserBucket;

  constructor(name = 'reward-club-admin', options: { bucket?: UserBucket } = {}) {
    const bucket = options.bucket ?? new UserBucket();
    super(name, {
      indexedDB: bucket.indexedDB,
      ...(typeof IDBKeyRange === 'undefined' ? {} : { IDBKeyRange }),
    });
    this.bucket = bucket;
    this.version(1).stores({
      queries: 'key, updatedAt',
      outbox: '++id, &idempotencyKey, createdAt',
    });
    // Version 2: the progress of flow machines (issue 5).
    this.version(2).stores({ flows: 'id, updatedAt' });
    // Version 3: outbox entries know whose they are and what they change (issue 6).
    this.version(3)
      .stores({ outbox: '++id, &idempotencyKey, createdAt, userId' })
      .upgrade((tx) =>
        tx
          .table('outbox')
          .toCollection()
          .modify((entry: OutboxEntry) => {
            entry.status ??= 'pending';
          }),
      );
  }

  /**
   * Sign-out (decision 009): deletes the Storage Bucket holding the database, with its files. Cleared
   * rows, and even a deleted database's rows, stay in the browser's LevelDB files until it compacts
   * them; a deleted bucket takes its directory with it. Other tabs' connections are closed by the
   * browser. The database reopens, empty, on its next use (autoOpen stays on), for the next user.
   * Without Storage Buckets the database itself is deleted.
   */
  async wipe(): Promise<void> {
    if (!this.bucket.isolated) {
      await this.delete({ disableAutoOpen: false });
      return;
    }
    // The whole bucket goes (its directory on disk); a fresh one is opened for the next user.
    const deleted = this.bucket.deleteAll();
    this.close({ disableAutoOpen: false });
    await deleted;
  }

  /** Every open (also Dexie's automatic one) first reaches the current bucket. */
  override open(): PromiseExtended<Dexie> {
    return Dexie.Promise.resolve(this.bucket.refresh()).then(() => super.open());
  }

  /** Empties every store, keeping the database (tests; sign-out uses `wipe`). */
  async clearUserData(): Promise<void> {
    await this.transaction('rw', [this.queries, this.outbox, this.flows], async () => {
      await Promise.all([this.queries.clear(), this.outbox.clear(), this.flows.clear()]);
    });
  }
}

export const appDb = new AppDb();
