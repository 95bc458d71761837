import { expect } from 'vitest';
import { type ConflictContext, conflictMachine } from '../../src/machines/conflict.machine';
import {
  changedAgainError,
  conflictModel,
  keepRefusedError,
  keptOutcome,
  myEdit,
  newerRecord,
} from './conflict-model';
import type { FlowHarness } from './flow-runner';
import { modelSuite } from './model-suite';

const harness: FlowHarness = {
  provide: (fakes) => conflictMachine.provide({ actors: { keepMine: fakes.actor('keepMine') } }),
  check: ({ step, before, after, newCalls }) => {
    const b = before.context as ConflictContext;
    const c = after.context as ConflictContext;
    const e = step.event as { type: string; error?: unknown };
    // Keep mine sends my edit against the record the dialog showed, once.
    if (e.type === 'conflict.keepMine')
      expect(newCalls).toEqual([
        { id: 'keepMine', input: { mine: myEdit, theirs: b.theirs, subject: undefined } },
      ]);
    else expect(newCalls).toEqual([]);
    // Changed again: asked again, now with the newer record.
    if (e.error === changedAgainError) {
      expect(after.matches('choosing')).toBe(true);
      expect(c.theirs).toBe(newerRecord);
    }
    if (e.error === keepRefusedError)
      expect(after.output).toMatchObject({ choice: 'failed', error: 'Address is required.' });
    if (after.matches('kept')) expect(after.output).toMatchObject({ choice: 'kept', result: keptOutcome });
    if (after.matches('dropped')) expect(after.output).toMatchObject({ choice: 'dropped', theirs: c.theirs });
    if (after.matches('closed')) expect(b.closable).toBe(true);
    if (e.type === 'conflict.close' && !b.closable) expect(after.matches('choosing')).toBe(true);
  },
};

modelSuite(conflictModel, harness);
