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
        keepMine: fakes.actor('keepMine'),
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
            expect(c.error).toBe('address:Address is required');
          } else {
            expect(input).toEqual({ id: (step.event as { id?: number }).id, status: 'pending', error: null });
          }
          break;
        case 'keepMine':
          expect(input).toEqual(b.conflict);
          break;
        case 'discardEntry':
          expect(input).toEqual({
            id:
              step.event.type === 'outbox.useTheirs'
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
