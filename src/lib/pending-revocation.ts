import { clearPendingRevocation, readPendingRevocations } from './session-storage';

/**
 * Issue 17: a sign-out the server could not be told of is kept (the refresh token alone, see
 * session-storage.ts) and sent from here: at start, on the browser's online event and every few
 * seconds while one waits. Each is removed once the server revoked it or refused it (dead already).
 */
export function startRevocationSender({
  revoke,
  everyMs = 5000,
}: {
  revoke: (tokens: { accessToken: string; refreshToken: string }) => Promise<void>;
  everyMs?: number;
}): () => void {
  let busy = false;
  const flush = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const refreshToken of readPendingRevocations()) {
        try {
          await revoke({ accessToken: '', refreshToken });
          clearPendingRevocation(refreshToken);
        } catch {
          // No answer: kept for the next try.
        }
      }
    } finally {
      busy = false;
    }
  };
  const onOnline = () => void flush();
  window.addEventListener('online', onOnline);
  const timer = setInterval(() => {
    if (readPendingRevocations().length > 0) void flush();
  }, everyMs);
  void flush();
  return () => {
    window.removeEventListener('online', onOnline);
    clearInterval(timer);
  };
}
