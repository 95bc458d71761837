import { describe, expect, it } from 'vitest';
import { guidedRedemptionMachine } from '../../src/machines/guided-redemption.machine';
import { sessionMachine } from '../../src/machines/session.machine';
import { machineInventory } from '../model/flow-engine';
import { flowModels } from '../model/flow-paths';
import { outboxModel } from '../model/outbox-model';
import { edgeAnchor, machineSvg } from './diagram';

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
      // Each transition not walked carries the id the report's list links to (issue 30).
      for (const key of missed)
        expect(svg).toContain(`id="${edgeAnchor(machine.id, inventory.transitions.get(key) ?? key)}"`);
    },
  );

  it('draws a compound state as a container around its children (issue 30)', () => {
    const inventory = machineInventory(sessionMachine);
    const svg = machineSvg(sessionMachine, () => 'walked', new Set(inventory.states));
    const compound = inventory.states.filter((id) =>
      inventory.states.some((other) => other.startsWith(`${id}.`)),
    );
    expect(compound.length).toBeGreaterThan(0);
    for (const id of compound)
      expect(svg).toContain(`<title>${id.slice(sessionMachine.root.id.length + 1)} (compound state)</title>`);
    // A child's box lies inside its container.
    const box = (re: RegExp) => {
      const m = re.exec(svg);
      if (!m) throw new Error(`no ${re}`);
      const [x, y, w, h] = m.slice(1, 5).map(Number) as [number, number, number, number];
      return { x, y, w, h };
    };
    const outer = box(
      /<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"[^>]*><title>signedIn \(compound state\)/,
    );
    const inner = box(
      /<rect x="([\d.-]+)" y="([\d.-]+)" width="([\d.]+)" height="([\d.]+)"[^>]*\/><text[^>]*>signedIn\.active</,
    );
    expect(inner.x).toBeGreaterThanOrEqual(outer.x);
    expect(inner.y).toBeGreaterThanOrEqual(outer.y);
    expect(inner.x + inner.w).toBeLessThanOrEqual(outer.x + outer.w);
    expect(inner.y + inner.h).toBeLessThanOrEqual(outer.y + outer.h);
  });

  it("labels a guard with its parameters: the guided machine's six resumes differ (issue 30)", () => {
    const inventory = machineInventory(guidedRedemptionMachine);
    const svg = machineSvg(guidedRedemptionMachine, () => 'walked', new Set(inventory.states));
    for (const step of ['pickReward', 'sendCode', 'enterCode', 'amount', 'confirm', 'receipt'])
      expect(svg).toContain(`resume [wasAt(steps: ${step})]`);
  });
});
