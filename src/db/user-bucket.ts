/**
 * Where the user's IndexedDB lives: a Storage Bucket of its own (decision 009), so that sign-out can
 * delete it with its files. Deleting a database in the default bucket leaves its records in the
 * browser's LevelDB files until the browser compacts them (seen in Chromium: the deleted rows stay
 * in a `.ldb` table file of the origin after the browser is closed); deleting a bucket removes the
 * bucket's directory. Without the Storage Buckets API (jsdom, older browsers, insecure contexts) the
 * default IndexedDB is used and the database itself is deleted on sign-out.
 */

export const USER_BUCKET = 'reward-club-user';

/** The part of `navigator.storageBuckets` (StorageBucketManager) used here. */
export interface BucketManager {
  open(
    name: string,
    options?: { persisted?: boolean; durability?: 'strict' | 'relaxed' },
  ): Promise<{
    indexedDB: IDBFactory;
  }>;
  delete(name: string): Promise<void>;
  keys(): Promise<string[]>;
}

export const browserBuckets = (): BucketManager | null => {
  const nav =
    typeof navigator === 'undefined' ? undefined : (navigator as { storageBuckets?: BucketManager });
  return nav?.storageBuckets ?? null;
};

/** A bucket operation that does not answer (a busy or broken storage backend) gives way. */
const OPEN_TIMEOUT_MS = 3000;

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('storage bucket timeout')), ms)),
  ]);

export class UserBucket {
  private factory: IDBFactory | null = null;
  /** Bucket operations run one after the other (open, delete + open). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly buckets: () => BucketManager | null = browserBuckets) {}

  /** Whether the user's data is in a bucket of its own (else in the default IndexedDB). */
  get isolated(): boolean {
    return this.buckets() !== null;
  }

  private run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async openBucket(manager: BucketManager) {
    try {
      this.factory = (
        await withTimeout(manager.open(USER_BUCKET, { persisted: false }), OPEN_TIMEOUT_MS)
      ).indexedDB;
    } catch {
      this.factory = null; // the default IndexedDB then
    }
  }

  /**
   * Opens the bucket (again): called before every database open. A bucket deleted by another tab
   * leaves this tab's bucket object unusable; opening it by name gives a working one.
   */
  refresh(): Promise<void> {
    const manager = this.buckets();
    return manager ? this.run(() => this.openBucket(manager)) : Promise.resolve();
  }

  /** Deletes the bucket with everything in it (its files), then opens a fresh, empty one. */
  deleteAll(): Promise<void> {
    const manager = this.buckets();
    if (!manager) return Promise.resolve();
    return this.run(async () => {
      this.factory = null;
      await withTimeout(manager.delete(USER_BUCKET), OPEN_TIMEOUT_MS * 3);
      await this.openBucket(manager);
    });
  }

  private current(): IDBFactory {
    return this.factory ?? globalThis.indexedDB;
  }

  /** An IDBFactory for Dexie that always reaches the current bucket's (or the default) IndexedDB. */
  readonly indexedDB: IDBFactory = {
    open: (name: string, version?: number) => this.current().open(name, version),
    deleteDatabase: (name: string) => this.current().deleteDatabase(name),
    databases: () => this.current().databases(),
    cmp: (a: unknown, b: unknown) => this.current().cmp(a, b),
  };
}
