import { describeError, type Logger } from './log';

/**
 * A background job that runs one at a time (the mail outbox, the webhook sender): `kick()` starts a
 * run, or asks the running one for one more pass, so work queued during a run is never left waiting
 * for the next kick. A failed pass is logged, never thrown. `running()` is the run in progress.
 */
export function singleRun(pass: () => Promise<unknown>, log: Logger, failure: string) {
  let running: Promise<void> | null = null;
  let again = false;
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pass();
        } catch (err) {
          log.error(failure, { error: describeError(err) });
        }
      } while (again);
    })().finally(() => {
      running = null;
    });
  };
  return { kick, running: () => running };
}
