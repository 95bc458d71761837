/** docs/product.md#entities: the admin session lives in localStorage under the key `admin`. */
export const SESSION_STORAGE_KEY = 'admin';

/** Issue 17: the user of a session that expired with edits queued (see session-storage.ts). */
export const LOCKED_STORAGE_KEY = 'admin-locked';

/**
 * Whether this browser holds a session, or a locked one, to restore (read as the session machine
 * will read it, without parsing: src/main.tsx decides from it, before the session module has
 * loaded, whether the first screen is the router-less sign-in screen). A stored value the machine
 * finds unreadable only takes the other, slower path to the same sign-in screen.
 */
export function storedSessionPresent(): boolean {
  try {
    return (
      localStorage.getItem(SESSION_STORAGE_KEY) !== null || localStorage.getItem(LOCKED_STORAGE_KEY) !== null
    );
  } catch {
    return false;
  }
}
