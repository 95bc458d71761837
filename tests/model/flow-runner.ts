import {
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  type EventObject,
  fromPromise,
} from 'xstate';
import {
  activeStateIds,
  type Coverage,
  type FlowModel,
  type FlowPath,
  type FlowStep,
  machineInventory,
  stateKeyOf,
  transitionKey,
} from './flow-engine';

/**
 * Runs generated paths against the machine itself with fake effects: each effect (a fromPromise
 * actor) waits until the path says how it ends ('xstate.done.actor.x' resolves it with the output,
 * 'xstate.error.actor.x' rejects it with the error); every other event is sent as the UI would.
 * After each step the actor must be in the step's abstract state and pass the model's checks.
 */

export interface FakeCall {
  id: string;
  input: unknown;
}

export class FakeEffects {
  readonly calls: FakeCall[] = [];
  private readonly pending = new Map<
    string,
    Array<{ resolve: (v: unknown) => void; reject: (e: unknown) => void }>
  >();

  /** A promise actor that records its input and waits for `settle`. */
  actor<TOutput = unknown, TInput = unknown>(id: string) {
    return fromPromise<TOutput, TInput>(
      ({ input }) =>
        new Promise<TOutput>((resolve, reject) => {
          this.calls.push({ id, input });
          const queue = this.pending.get(id) ?? [];
          queue.push({ resolve: resolve as (v: unknown) => void, reject });
          this.pending.set(id, queue);
        }),
    );
  }

  settle(id: string, outcome: { output: unknown } | { error: unknown }): void {
    const next = this.pending.get(id)?.shift();
    if (!next) throw new Error(`The path ends a '${id}' call, but none is running`);
    if ('error' in outcome) next.reject(outcome.error);
    else next.resolve(outcome.output);
  }

  callsOf(id: string): FakeCall[] {
    return this.calls.filter((c) => c.id === id);
  }
}

export interface StepCheck {
  step: FlowStep;
  before: AnyMachineSnapshot;
  after: AnyMachineSnapshot;
  fakes: FakeEffects;
  /** Calls made by this step. */
  newCalls: FakeCall[];
}

export interface FlowHarness {
  /** The machine with its effects replaced by fakes. */
  provide: (fakes: FakeEffects) => AnyStateMachine;
  /** Performs a step itself (e.g. drives an invoked child); return false to use the default. */
  perform?: (event: EventObject, actor: AnyActorRef, fakes: FakeEffects) => Promise<boolean>;
  /** Throws when a step's outcome is wrong (messages, calls, keys). */
  check?: (check: StepCheck) => void;
}

export const settleEffects = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

export interface PathRun {
  transitions: Set<string>;
  states: Set<string>;
}

export async function runFlowPath(model: FlowModel, path: FlowPath, harness: FlowHarness): Promise<PathRun> {
  const fakes = new FakeEffects();
  const transitions = new Set<string>();
  const states = new Set<string>();
  const machine = harness.provide(fakes);
  const actor = createActor(machine, {
    input: path.start.input as never,
    inspect: (ev) => {
      if (ev.type !== '@xstate.microstep') return;
      for (const t of ev._transitions) {
        transitions.add(transitionKey(t));
        // A transient state (left at once by its eventless transition) is visited when that is taken.
        if (!t.eventType) states.add(t.source.id);
      }
    },
  });
  actor.start();
  const expectState = (snapshot: AnyMachineSnapshot, key: string, where: string) => {
    const actual = stateKeyOf(model, snapshot);
    if (actual !== key) throw new Error(`${where}: expected ${key}, got ${actual}`);
    for (const id of activeStateIds(model.machine, snapshot)) states.add(id);
  };
  try {
    expectState(actor.getSnapshot(), stateKeyOf(model, path.initial), 'start');
    for (const [i, step] of path.steps.entries()) {
      const before = actor.getSnapshot();
      const callCount = fakes.calls.length;
      const { type } = step.event;
      const handled = (await harness.perform?.(step.event, actor, fakes)) ?? false;
      if (!handled) {
        if (type.startsWith('xstate.done.actor.')) {
          fakes.settle(type.slice('xstate.done.actor.'.length), {
            output: (step.event as { output?: unknown }).output,
          });
        } else if (type.startsWith('xstate.error.actor.')) {
          fakes.settle(type.slice('xstate.error.actor.'.length), {
            error: (step.event as { error?: unknown }).error,
          });
        } else {
          actor.send(step.event as never);
        }
      }
      await settleEffects();
      const after = actor.getSnapshot();
      const where = `step ${i + 1} (${step.description})`;
      expectState(after, step.stateKey, where);
      try {
        harness.check?.({ step, before, after, fakes, newCalls: fakes.calls.slice(callCount) });
      } catch (error) {
        throw new Error(`${where}: ${(error as Error).message}`);
      }
    }
  } finally {
    actor.stop();
  }
  return { transitions, states };
}

/** What the runs reached, against the machine's inventory. */
export function measuredCoverage(model: FlowModel, runs: PathRun[]): Coverage {
  const inventory = machineInventory(model.machine);
  const transitions = new Set(runs.flatMap((r) => [...r.transitions]));
  const states = new Set(runs.flatMap((r) => [...r.states]));
  const total = [...inventory.transitions.keys()];
  return {
    states: { covered: inventory.states.filter((s) => states.has(s)), total: inventory.states },
    transitions: { covered: total.filter((t) => transitions.has(t)), total },
  };
}

export function coverageLine(model: FlowModel, paths: number, coverage: Coverage): string {
  return (
    `${model.name}: ${paths} paths, states ${coverage.states.covered.length}/${coverage.states.total.length}, ` +
    `transitions ${coverage.transitions.covered.length}/${coverage.transitions.total.length}`
  );
}

/** The uncovered states and transitions, readable (empty when everything is covered). */
export function uncovered(model: FlowModel, coverage: Coverage): string[] {
  const names = machineInventory(model.machine).transitions;
  return [
    ...coverage.states.total.filter((s) => !coverage.states.covered.includes(s)).map((s) => `state ${s}`),
    ...coverage.transitions.total
      .filter((t) => !coverage.transitions.covered.includes(t))
      .map((t) => `transition ${names.get(t) ?? t}`),
  ];
}
