import { expect } from 'vitest';
import { nextPending, type OutboxContext, outboxMachine } from '../../src/machines/outbox.machine';
import type { FlowHarness } from './flow-runner';
import { modelSuite } from './model-suite';
import { outboxConflictError, outboxModel, outboxValidationError } from './outbox-model';

const harness: FlowHarness = {
  provide: (fakes) =>
    outboxMachine.provide({
      actors: {
        loadEntries: fakes.actor('loadEntries'),
        sendEntry: fakes.actor('sendEntry'),
        markEntry: fakes.actor('markEntry'),
        discardEntry: fakes.actor('discardEntry'),
        // The 409 choice ends as the path says (the conflict machine has its own paths).
        choice: fakes.actor('choice') as never,
        retryTimer: fakes.actor('retryTimer'),
        linkBack: fakes.actor('linkBack'),
      },
    }),
  check: ({ step, before, after, newCalls }) => {
    const b = before.context as OutboxContext;
    const c = after.context as OutboxContext;
    for (const call of newCalls) {
      const input = call.input as Record<string, unknown>;
      switch (call.id) {
        case 'sendEntry': {
          // In order, one at a time, never offline, never a failed entry, with the entry's own key.
          const entry = input.entry as OutboxContext['entries'][number];
          const expected = nextPending(after.context.entries);
          expect(c.online).toBe(true);
          expect(entry).toBe(expected);
          expect(entry.status).not.toBe('failed');
          expect(entry.idempotencyKey).toBe(`key-${entry.id}`);
          expect(newCalls.filter((x) => x.id === 'sendEntry')).toHaveLength(1);
          break;
        }
        case 'markEntry':
          if (after.matches('failing')) {
            // A refused entry (4xx) is marked failed with the server's words, the queue goes on.
            expect(input).toEqual({ id: nextPending(b.entries)?.id, status: 'failed', error: c.error });
            expect(c.error).toBe('Address is required.');
          } else {
            expect(input).toEqual({ id: (step.event as { id?: number }).id, status: 'pending', error: null });
          }
          break;
        case 'choice':
          // The dialog shows the entry and the server's record; Keep mine acts on the entry.
          expect(input).toEqual({
            label: c.conflict?.entry.label,
            mine: c.conflict?.entry.body,
            theirs: c.conflict?.current,
            subject: c.conflict?.entry,
          });
          break;
        case 'discardEntry':
          expect(input).toEqual({
            id:
              step.event.type === 'xstate.done.actor.choice'
                ? b.conflict?.entry.id
                : (step.event as { id?: number }).id,
          });
          break;
        case 'retryTimer':
          expect(input).toEqual({ attempt: c.attempt });
          expect(c.attempt).toBeGreaterThan(0);
          break;
      }
    }
    if ((step.event as { error?: unknown }).error === outboxConflictError) {
      // The queue stops at the conflict: the dialog has the entry and the server's record.
      expect(c.conflict).toEqual({ entry: nextPending(b.entries), current: outboxConflictError.current });
    }
    if ((step.event as { error?: unknown }).error === outboxValidationError) {
      expect(after.matches('failing')).toBe(true);
    }
    if (step.event.type === 'xstate.done.actor.sendEntry') {
      expect(c.sent).toBe(b.sent + 1);
      expect(c.attempt).toBe(0);
    }
  },
};

modelSuite(outboxModel, harness);
