import type { Db } from './db/client';
import { expireOverdue } from './domain/approvals';
import { type Logger, silentLogger } from './log';
import { singleRun } from './single-run';

/**
 * The four-eyes expiry sweep (issue 35, docs/decisions/074): what waits for approval longer than the
 * club's `approvalExpiryDays` expires (an event each), on the pattern of the reward expiry notices
 * (server/reward-expiry-notices.ts): every instance sweeps now and then; the sweep skips rows another
 * transaction holds, so instances never collide. Reads of what waits expire it too, so the state is
 * right even between sweeps.
 */
const APPROVAL_EXPIRY_POLL_MS = 60_000;

type ApprovalExpiry = {
  /** Expires what is overdue at the clock's now; answers how many expired. */
  sweep: () => Promise<number>;
  start: (pollMs?: number) => void;
  stop: () => void;
};

export function createApprovalExpiry(opts: { db: Db; clock?: () => Date; log?: Logger }): ApprovalExpiry {
  const clock = opts.clock ?? (() => new Date());
  const log = opts.log ?? silentLogger;
  const sweep = async () => {
    const n = await expireOverdue(opts.db, clock());
    if (n > 0) log.info('approval requests expired', { requests: n });
    return n;
  };
  const { kick } = singleRun(sweep, log, 'approval expiry sweep failed');
  let timer: NodeJS.Timeout | null = null;
  return {
    sweep,
    start: (pollMs = APPROVAL_EXPIRY_POLL_MS) => {
      timer ??= setInterval(kick, pollMs);
      timer.unref();
      kick();
    },
    stop: () => {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
