import { expect } from 'vitest';
import { rewardMessages } from '../../contract/rewards';
import { TEXTS } from '../../src/lib/texts';
import { type ReversalContext, reversalMachine } from '../../src/machines/reversal.machine';
import type { FlowHarness } from './flow-runner';
import { modelSuite } from './model-suite';
import {
  alreadyReversedError,
  REASON,
  reversalModel,
  reversalNetworkError,
  reversalReasonError,
  reversedOutcome,
} from './reversal-model';

const harness: FlowHarness = {
  provide: (fakes) =>
    reversalMachine.provide({ actors: { reverseRedemption: fakes.actor('reverseRedemption') } }),
  check: ({ step, before, after, newCalls }) => {
    const b = before.context as ReversalContext;
    const c = after.context as ReversalContext;
    const e = step.event as { type: string; error?: unknown };
    if (e.type === 'reversal.submit') {
      if (newCalls.length > 0) {
        // Sent only online with a valid reason; the same reason again sends the same key.
        expect(b.online).toBe(true);
        expect(newCalls).toEqual([
          {
            id: 'reverseRedemption',
            input: { ledgerEntryId: 31, reason: REASON, idempotencyKey: c.attempt?.idempotencyKey },
          },
        ]);
        if (b.attempt?.reason === REASON) expect(c.attempt?.idempotencyKey).toBe(b.attempt.idempotencyKey);
      } else if (c.reasonError === null) {
        expect(b.online).toBe(false);
        expect(c.error).toBe(rewardMessages.networkRequired);
      } else {
        expect(after.matches('editing')).toBe(true);
      }
    }
    if (e.error === reversalNetworkError) expect(c.error).toBe(TEXTS.reversal.noAnswer);
    if (e.error === reversalReasonError) expect(c.reasonError).toBe(reversalReasonError.errors[0]?.message);
    if (e.error === alreadyReversedError) expect(c.error).toBe(alreadyReversedError.message);
    if (after.matches('done')) expect(after.output).toEqual(reversedOutcome);
    if (after.matches('cancelled')) expect(newCalls).toEqual([]);
  },
};

modelSuite(reversalModel, harness);
