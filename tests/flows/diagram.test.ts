import { describe, expect, it } from 'vitest';
import { sessionMachine } from '../../src/machines/session.machine';
import { machineInventory } from '../model/flow-engine';
import { flowModels } from '../model/flow-paths';
import { outboxModel } from '../model/outbox-model';
import { machineSvg } from './diagram';

/** The report's diagrams: every state and every transition of a machine is drawn, marked as walked or not. */
const machines = [...flowModels.map((m) => m.machine), outboxModel.machine, sessionMachine];

describe('machineSvg', () => {
  it.each(machines.map((m) => [m.id, m] as const))(
    'draws every state and transition of %s',
    (_id, machine) => {
      const inventory = machineInventory(machine);
      const keys = [...inventory.transitions.keys()];
      const missed = new Set(keys.filter((_, i) => i % 3 === 0));
      const svg = machineSvg(
        machine,
        (key) => (missed.has(key) ? 'missed' : 'walked'),
        new Set(inventory.states),
      );
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      for (const state of inventory.states) {
        const short = state.slice(machine.root.id.length + 1);
        expect(svg).toContain(`>${short}`);
      }
      // A transition is an arrow (one per target) or, when it stays in its state, a '↻' line.
      const arrows = (svg.match(/<path d="M[^"]*" fill="none" stroke="#(15803d|dc2626)"/g) ?? []).length;
      const loops = (svg.match(/>↻ /g) ?? []).length;
      expect(arrows + loops).toBeGreaterThanOrEqual(keys.length);
      expect(
        (svg.match(/\(not walked\)/g) ?? []).length +
          (svg.match(/stroke="#dc2626" stroke-width/g) ?? []).length,
      ).toBeGreaterThanOrEqual(missed.size);
    },
  );
});
