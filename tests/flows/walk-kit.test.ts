import { describe, it, expect as vitestExpect } from 'vitest';
import { createMachine } from 'xstate';
import { machineInventory, statesOnlyThrough } from '../model/flow-engine';
import { countAssertions, expect, observed, stateName } from './walk-kit';

/** Issue 30: a state's check that asserts nothing fails the walk (tests/flows/walk.ts counts them). */
describe('the assertions a check makes', () => {
  it('counts expect, expect.poll and observed reads made inside the check, and nothing else', async () => {
    vitestExpect(await countAssertions(async () => {})).toBe(0);
    vitestExpect(
      await countAssertions(async () => {
        expect(1).toBe(1);
        await expect.poll(() => 2).toBe(2);
        observed();
      }),
    ).toBe(3);
    // Assertions made outside any check count for none.
    expect(3).toBe(3);
    vitestExpect(await countAssertions(async () => {})).toBe(0);
  });

  it('keeps the counts of checks running side by side apart', async () => {
    const slow = countAssertions(async () => {
      await new Promise((r) => setTimeout(r, 20));
      expect(true).toBe(true);
    });
    const empty = countAssertions(async () => {
      await new Promise((r) => setTimeout(r, 5));
    });
    vitestExpect(await Promise.all([slow, empty])).toEqual([1, 0]);
  });

  it("names a nested state as the report does: 'signedIn.refreshing.waitingForLock'", () => {
    vitestExpect(stateName('loading')).toBe('loading');
    vitestExpect(stateName({ signedIn: { refreshing: 'waitingForLock' } })).toBe(
      'signedIn.refreshing.waitingForLock',
    );
  });
});

/** A state only unreachable transitions lead to is not reported as missed (issue 35's expired campaign). */
describe('the states behind unreachable transitions', () => {
  const machine = createMachine({
    id: 'm',
    initial: 'route',
    states: {
      route: {
        always: [{ guard: () => false, target: 'expired' }, { target: 'open' }],
      },
      open: { on: { close: 'closed', lapse: 'lapsed' } },
      closed: {},
      expired: {},
      lapsed: {},
    },
  });
  const inventory = machineInventory(machine);

  it('are those whose every way in is listed', () => {
    vitestExpect(statesOnlyThrough(inventory, new Set(['m.route always #0']))).toEqual(['m.expired']);
    vitestExpect(
      statesOnlyThrough(inventory, new Set(['m.route always #0', 'm.open lapse #0'])).sort(),
    ).toEqual(['m.expired', 'm.lapsed']);
  });

  it('never the first state (no way in) nor a state with one way in walkable', () => {
    vitestExpect(statesOnlyThrough(inventory, new Set())).toEqual([]);
    vitestExpect(statesOnlyThrough(inventory, new Set(['m.open close #0', 'm.open lapse #0']))).toEqual([
      'm.closed',
      'm.lapsed',
    ]);
  });
});
