import { isDatabaseUnavailable } from './db/errors';
import { describeError, type Logger } from './log';

/**
 * Writes what became of a message that went out (delivered, or failed) until it lands (issue 33
 * item 7). The webhook and mail senders claim work with a lease (a token or a claim time that
 * expires); a message that was delivered but whose outcome could not be written — the database
 * connection cut, a failover — would be claimed again when that lease ran out and sent again. So
 * the write is retried while the database is unavailable, within `budgetMs` (well inside the lease:
 * no other sender can have claimed the message meanwhile). Past the budget, or on any other error,
 * it throws: the run fails and is logged, and at-least-once delivery stays.
 */
export async function writeOutcome(
  write: () => Promise<unknown>,
  o: { log: Logger; what: string; budgetMs: number; retryMs?: number },
): Promise<void> {
  const retryMs = o.retryMs ?? 250;
  const deadline = Date.now() + o.budgetMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      if (attempt > 1) o.log.info('outcome written after the database came back', { what: o.what, attempt });
      return;
    } catch (err) {
      const wait = Math.min(retryMs * attempt, 2_000);
      if (!isDatabaseUnavailable(err) || Date.now() + wait > deadline) throw err;
      o.log.warn('outcome not written yet: the database is unavailable, retrying', {
        what: o.what,
        error: describeError(err),
      });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
