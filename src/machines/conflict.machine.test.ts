import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { concurrencyMessages } from '../../contract/concurrency';
import { conflictMachine, type KeepMineInput } from './conflict.machine';

const v1 = { id: 3, address: 'A', updatedAt: '2026-03-02T10:00:00.000Z' };
const v2 = { id: 3, address: 'B', updatedAt: '2026-03-02T11:00:00.000Z' };

/** keepMine answers each call in turn: a value, or a thrown error. */
function start(answers: Array<{ ok: unknown } | { error: unknown }>, closable = true) {
  const calls: KeepMineInput[] = [];
  const actor = createActor(
    conflictMachine.provide({
      actors: {
        keepMine: fromPromise(async ({ input }: { input: KeepMineInput }) => {
          calls.push(input);
          const answer = answers.shift();
          if (!answer || 'error' in answer) throw answer?.error;
          return answer.ok;
        }),
      },
    }),
    { input: { label: 'Edit partner', mine: { address: 'mine' }, theirs: v1, closable, subject: 'entry-1' } },
  ).start();
  return { actor, calls };
}

describe('conflict machine', () => {
  it('Keep mine sends against the version shown; changed again, it asks again with the newer record', async () => {
    const { actor, calls } = start([
      { error: { status: 409, message: concurrencyMessages.recordChanged, current: v2 } },
      { ok: 'applied' },
    ]);
    actor.send({ type: 'conflict.keepMine' });
    await waitFor(actor, (s) => s.matches('choosing') && s.context.theirs === v2);
    actor.send({ type: 'conflict.keepMine' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(calls.map((c) => c.theirs)).toEqual([v1, v2]);
    expect(calls[0]?.subject).toBe('entry-1');
    expect(done.output).toEqual({ choice: 'kept', result: 'applied', theirs: v2, error: null });
  });

  it('another refusal ends the choice as failed, with the reason as a sentence', async () => {
    const { actor } = start([
      {
        error: {
          status: 400,
          message: 'Validation failed',
          errors: [{ fieldName: 'address', message: 'address is required' }],
        },
      },
    ]);
    actor.send({ type: 'conflict.keepMine' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.output).toMatchObject({ choice: 'failed', error: 'Address is required.' });
  });

  it('a 409 that is not "changed meanwhile" (the same edit in flight elsewhere) fails; it does not ask again', async () => {
    // The server's words for a key in flight (server/domain/idempotency.ts, inProgress), written out.
    const { actor, calls } = start([
      { error: { status: 409, message: 'A request with this Idempotency-Key is in progress', current: v2 } },
    ]);
    actor.send({ type: 'conflict.keepMine' });
    const done = await waitFor(actor, (s) => !s.matches('keeping'));
    expect(done.status).toBe('done');
    expect(calls).toHaveLength(1);
    expect(done.output).toMatchObject({
      choice: 'failed',
      theirs: v1,
      error: 'A request with this Idempotency-Key is in progress',
    });
  });

  it('a dialog not said to be closable cannot be closed: a choice must be made', () => {
    const actor = createActor(conflictMachine, {
      input: { label: 'Edit partner', mine: { address: 'mine' }, theirs: v1, subject: 'entry-1' },
    }).start();
    actor.send({ type: 'conflict.close' });
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('Use theirs ends at once with the server record; nothing is sent', () => {
    const { actor, calls } = start([]);
    actor.send({ type: 'conflict.useTheirs' });
    expect(actor.getSnapshot().output).toMatchObject({ choice: 'dropped', theirs: v1 });
    expect(calls).toEqual([]);
  });

  it("closing works only where the dialog may be closed (a form), not in the outbox's queue", () => {
    const form = start([]);
    form.actor.send({ type: 'conflict.close' });
    expect(form.actor.getSnapshot().output).toMatchObject({ choice: 'closed' });
    const queue = start([], false);
    queue.actor.send({ type: 'conflict.close' });
    expect(queue.actor.getSnapshot().value).toBe('choosing');
  });
});
