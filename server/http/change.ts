import type { Context } from 'hono';
import type { DbOrTx, Tx } from '../db/client';
import { actorOfAuthUser, type ChangeEvent, recordEvent } from '../domain/events';
import type { AppEnv } from '../types';
import { requestMeta } from './client-address';
import type { RouteContext } from './context';

/**
 * A change the signed-in caller makes in this request (decision 047): `now` is its time; `record`
 * writes its event to the log (by the caller, with the request's address, at `now`) inside the
 * change's transaction; `commit` runs a change in one transaction with the event it returns.
 */
export function callerChange(c: Context<AppEnv>, ctx: Pick<RouteContext, 'db' | 'clock' | 'config'>) {
  const user = c.get('user');
  const now = ctx.clock();
  const meta = requestMeta(c, ctx.config.trustProxy);
  const record = (tx: DbOrTx, e: ChangeEvent) =>
    recordEvent(tx, { actor: actorOfAuthUser(user), ...e, meta, at: now });
  return {
    user,
    now,
    record,
    /** `change` and the event it returns, in one transaction (it returns none: nothing to record). */
    commit: (change: (tx: Tx) => Promise<ChangeEvent | undefined>) =>
      ctx.db.transaction(async (tx) => {
        const event = await change(tx);
        if (event) await record(tx, event);
      }),
  };
}
