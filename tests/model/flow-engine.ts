import { getAdjacencyMap, getStateNodes } from '@xstate/graph';
import {
  __unsafe_getAllOwnEventDescriptors,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
} from 'xstate';

/**
 * Model-based paths from a machine (docs/decisions/006-model-based-tests.md). The machine is walked
 * with `@xstate/graph`'s adjacency map over a few sampled events per state; states are compared by
 * an abstraction (the state value plus the context facts the guards read), which keeps the graph
 * finite. From it we pick, shortest first, the paths that reach a transition, a state node or an
 * event case nobody reached yet: every state and every transition of the machine, each by one of
 * the shortest walks there. The same paths are printed (`npm run flows`), run against the machine
 * with fake effects (tests/model/*.test.ts), and can be walked by Playwright against the real UI.
 */

type AnyTransition = {
  source: AnyStateNode;
  eventType: string;
  // biome-ignore lint/suspicious/noExplicitAny: guards are typed per machine
  guard?: any;
  target?: readonly AnyStateNode[];
};

export interface FlowStart<TInput = unknown> {
  /** How a tester would name the starting situation ('A gift card with ₦5,000 left'). */
  label: string;
  input: TInput;
}

export interface FlowModel<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** The machine's name in the printout and the tests ('otp', 'redeem' ...). */
  name: string;
  title: string;
  machine: TMachine;
  starts: FlowStart[];
  /** The sampled events offered in a state (the event cases). */
  events: (snapshot: AnyMachineSnapshot) => EventObject[];
  /** What tells two states apart besides their value: the context facts the guards read. */
  abstract: (snapshot: AnyMachineSnapshot) => Record<string, unknown>;
  /** A tester's words for an event ('type 3', 'the server rejects the code'). */
  describeEvent: (event: EventObject) => string;
  /** A tester's words for where the flow is after a step. */
  describeState: (snapshot: AnyMachineSnapshot) => string;
  /** Groups event cases for coverage; defaults to the event type plus its non-output fields. */
  eventCase?: (event: EventObject) => string;
  /** Further things a tester wants reached at least once (e.g. 'success with a coupon'). */
  extraGoals?: (step: FlowStep) => string[];
}

export interface FlowStep {
  event: EventObject;
  description: string;
  /** The abstract state the machine must be in after the step. */
  stateKey: string;
  state: AnyMachineSnapshot;
  stateDescription: string;
  /** The machine transitions this step takes (keys of `transitionKey`). */
  transitions: string[];
}

export interface FlowPath {
  model: string;
  start: FlowStart;
  /** The machine's first state for this start. */
  initial: AnyMachineSnapshot;
  steps: FlowStep[];
  title: string;
}

export interface Coverage {
  states: { covered: string[]; total: string[] };
  transitions: { covered: string[]; total: string[] };
}

/** One transition definition of a machine: source node, event type (or 'always') and position. */
export function transitionKey(t: AnyTransition): string {
  const list: AnyTransition[] =
    t.eventType === '' ? (t.source.always ?? []) : (t.source.transitions.get(t.eventType) ?? []);
  const index = list.findIndex(
    (candidate) => candidate === t || (candidate.guard === t.guard && candidate.target === t.target),
  );
  return `${t.source.id} ${t.eventType || 'always'} #${index}`;
}

/** A guard's parameters, readable: `(steps: pickReward)`; nothing when it has none (issue 30). */
const guardParams = (params: unknown): string => {
  if (params === null || typeof params !== 'object') return params === undefined ? '' : `(${String(params)})`;
  const entries = Object.entries(params as Record<string, unknown>);
  if (!entries.length) return '';
  const value = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : JSON.stringify(v));
  return `(${entries.map(([k, v]) => `${k}: ${value(v)}`).join('; ')})`;
};

const guardName = (guard: unknown): string => {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  const g = guard as { type?: string; guards?: unknown[]; name?: string; params?: unknown };
  if (g.type === 'xstate.not' && g.guards) return `not ${guardName(g.guards[0])}`;
  if (g.guards) return g.guards.map(guardName).join(` ${g.type?.replace('xstate.', '')} `);
  // Parameters tell apart the guards of one type (the guided machine's six `wasAt` resumes).
  return `${g.type ?? g.name ?? 'guard'}${typeof g.params === 'function' ? '(…)' : guardParams(g.params)}`;
};

/** Every state node (but the root) and every transition definition of a machine, readable. */
export function machineInventory(machine: AnyStateMachine) {
  const nodes = getStateNodes(machine.root);
  const transitions = new Map<string, string>();
  /** Each transition's target state ids (none: it stays). */
  const targets = new Map<string, string[]>();
  for (const node of [machine.root, ...nodes]) {
    const lists: AnyTransition[][] = [...node.transitions.values(), node.always ?? []];
    for (const list of lists) {
      for (const t of list) {
        const guard = guardName(t.guard);
        const target = t.target?.map((n) => n.id).join(',') ?? '(stays)';
        targets.set(transitionKey(t), t.target?.map((n) => n.id) ?? []);
        transitions.set(
          transitionKey(t),
          `${node.id} --${t.eventType || 'always'}${guard ? ` [${guard}]` : ''}--> ${target}`,
        );
      }
    }
  }
  return { states: nodes.map((n) => n.id), transitions, targets };
}

/**
 * The states only transitions of `unreachable` lead to (a walk cannot be there either): each has at
 * least one transition into it, all of them listed.
 */
export function statesOnlyThrough(
  inventory: ReturnType<typeof machineInventory>,
  unreachable: ReadonlySet<string>,
): string[] {
  const into = new Map<string, string[]>();
  for (const [key, ids] of inventory.targets)
    for (const id of ids) into.set(id, [...(into.get(id) ?? []), key]);
  return inventory.states.filter((id) => {
    const keys = into.get(id) ?? [];
    return keys.length > 0 && keys.every((k) => unreachable.has(k));
  });
}

const valueOfPath = (path: string[]): unknown =>
  path.length === 1 ? path[0] : { [path[0] as string]: valueOfPath(path.slice(1)) };

/** The ids of the state nodes a snapshot is in. */
export function activeStateIds(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): string[] {
  return getStateNodes(machine.root)
    .filter((n) => snapshot.matches(valueOfPath(n.path) as never))
    .map((n) => n.id);
}

/** The eventless transitions a machine takes as it starts (its first state's `always`), as keys. */
export function initialTransitions(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): string[] {
  const first = (machine.root.initial as { target?: readonly AnyStateNode[] } | undefined)?.target?.[0];
  const taken = (first?.always ?? []).find((t: AnyTransition) =>
    t.target?.some((n) => snapshot.matches(valueOfPath(n.path) as never)),
  );
  return taken ? [transitionKey(taken as AnyTransition)] : [];
}

/**
 * The transitions a step takes: the event's own, then the eventless ones it passes through on the
 * way to `next` (a transient state's `always` whose target `next` is in), as keys.
 */
function takenWithEventless(
  machine: AnyStateMachine,
  state: AnyMachineSnapshot,
  event: EventObject,
  next: AnyMachineSnapshot,
): string[] {
  const taken = machine.getTransitionData(state as never, event as never) as AnyTransition[];
  const keys = taken.map(transitionKey);
  for (const t of taken)
    for (const node of t.target ?? []) {
      const on = (node.always ?? []).find((a: AnyTransition) =>
        a.target?.some((n) => next.matches(valueOfPath(n.path) as never)),
      );
      if (on) keys.push(transitionKey(on as AnyTransition));
    }
  return keys;
}

export const stateKeyOf = (model: FlowModel, snapshot: AnyMachineSnapshot): string =>
  JSON.stringify({ value: snapshot.value, ...model.abstract(snapshot) });

const defaultEventCase = (event: EventObject): string => {
  const {
    type,
    output: _output,
    error,
    ...rest
  } = event as EventObject & { output?: unknown; error?: unknown };
  const status = (error as { status?: number } | undefined)?.status;
  return `${type}${Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : ''}${status !== undefined ? ` status ${status}` : ''}`;
};

/**
 * The sampled events a state can take: only types some active state handles (an answer from an
 * effect arrives only while that effect runs), so every step is one a real user or server can make.
 */
export const offeredEvents =
  (model: FlowModel) =>
  (snapshot: AnyMachineSnapshot): EventObject[] => {
    const handled = new Set(__unsafe_getAllOwnEventDescriptors(snapshot));
    // An empty handler (`onError: {}`: the answer is taken and nothing changes) is not among the
    // descriptors, but a transition all the same.
    return model
      .events(snapshot)
      .filter(
        (e) =>
          handled.has(e.type) || model.machine.getTransitionData(snapshot as never, e as never).length > 0,
      );
  };

interface Candidate {
  startIndex: number;
  initial: AnyMachineSnapshot;
  steps: FlowStep[];
  goals: string[];
}

export interface PathChoice {
  /**
   * 'cases' (the default): every state, transition and event case (and the model's extra goals)
   * reached, each by a shortest walk: the paths the model tests run against the machine.
   * 'transitions': a transition cover for the browser, where every path costs a page: every state
   * and transition reached (the machine's start too) with as few paths as the candidates allow,
   * the path reaching the most not yet reached first.
   */
  cover?: 'cases' | 'transitions';
  /** Leaves out candidate paths that cannot be walked (their goals are reached by others, or not). */
  keep?: (path: FlowPath) => boolean;
  /**
   * 'transitions' only: further goals a step reaches (e.g. 'a gift card redeemed at the server'),
   * so the cover walks them too where the machine's transitions alone would not.
   */
  goals?: (step: FlowStep) => string[];
}

/** The model's paths, chosen as `choice.cover` says. */
export function generateFlowPaths(model: FlowModel, choice: PathChoice = {}): FlowPath[] {
  const cover = choice.cover ?? 'cases';
  const eventCase = model.eventCase ?? defaultEventCase;
  const candidates: Candidate[] = [];
  model.starts.forEach((start, startIndex) => {
    const serialize = (s: AnyMachineSnapshot) => stateKeyOf(model, s);
    const adjacency = getAdjacencyMap(model.machine, {
      input: start.input,
      events: offeredEvents(model) as never,
      serializeState: serialize as never,
    }) as Record<
      string,
      {
        state: AnyMachineSnapshot;
        transitions: Record<string, { event: EventObject; state: AnyMachineSnapshot }>;
      }
    >;
    const initialKey = Object.keys(adjacency)[0] as string;
    // Breadth first: the shortest walk to each abstract state.
    const walks = new Map<string, FlowStep[]>([[initialKey, []]]);
    const queue = [initialKey];
    const edges: Array<{ from: string; step: FlowStep }> = [];
    while (queue.length) {
      const key = queue.shift() as string;
      const { state, transitions } = adjacency[key] ?? { state: null, transitions: {} };
      if (!state) continue;
      for (const { event, state: next } of Object.values(transitions)) {
        const nextKey = serialize(next);
        const step: FlowStep = {
          event,
          description: model.describeEvent(event),
          stateKey: nextKey,
          state: next,
          stateDescription: model.describeState(next),
          transitions: takenWithEventless(model.machine, state, event, next),
        };
        edges.push({ from: key, step });
        if (!walks.has(nextKey)) {
          walks.set(nextKey, [...(walks.get(key) ?? []), step]);
          queue.push(nextKey);
        }
      }
    }
    const initial = adjacency[initialKey]?.state as AnyMachineSnapshot;
    for (const { from, step } of edges) {
      const steps = [...(walks.get(from) ?? []), step];
      if (choice.keep && !choice.keep(toPath(model, { startIndex, initial, steps, goals: [] }))) continue;
      if (cover === 'transitions') {
        candidates.push({
          startIndex,
          initial,
          steps,
          goals: [
            ...initialTransitions(model.machine, initial),
            ...activeStateIds(model.machine, initial).map((id) => `state ${id}`),
            ...steps.flatMap((s) => [
              ...s.transitions,
              ...activeStateIds(model.machine, s.state).map((id) => `state ${id}`),
              ...(choice.goals?.(s) ?? []),
            ]),
          ],
        });
        continue;
      }
      const goals = [
        ...step.transitions,
        ...activeStateIds(model.machine, step.state).map((id) => `state ${id}`),
        `case ${eventCase(step.event)}`,
        `start ${startIndex}`,
        ...(model.extraGoals?.(step) ?? []),
      ];
      candidates.push({ startIndex, initial, steps, goals });
    }
  });

  const reached = new Set<string>();
  const kept: Candidate[] = [];
  if (cover === 'transitions') {
    // Greedy set cover: the walk reaching the most not yet reached, the shorter on a tie.
    const pool = candidates.map((c) => ({ ...c, goals: [...new Set(c.goals)] }));
    for (;;) {
      let best: Candidate | null = null;
      let bestFresh = 0;
      for (const c of pool) {
        const fresh = c.goals.filter((g) => !reached.has(g)).length;
        if (
          fresh > bestFresh ||
          (fresh === bestFresh && best && fresh > 0 && c.steps.length < best.steps.length)
        ) {
          best = c;
          bestFresh = fresh;
        }
      }
      if (!best) break;
      for (const g of best.goals) reached.add(g);
      kept.push(best);
    }
  } else {
    // Greedy, shortest first: keep a walk when it reaches something no kept walk reached.
    candidates.sort((a, b) => a.steps.length - b.steps.length);
    for (const candidate of candidates) {
      const fresh = candidate.goals.filter((g) => !reached.has(g));
      if (fresh.length === 0) continue;
      for (const g of candidate.goals) reached.add(g);
      kept.push(candidate);
    }
  }
  // A walk that is the beginning of a longer kept walk adds nothing: the longer one checks each step.
  const isPrefix = (a: Candidate, b: Candidate) =>
    a !== b &&
    a.startIndex === b.startIndex &&
    a.steps.length < b.steps.length &&
    a.steps.every((s, i) => s === b.steps[i]);
  const paths = kept.filter((a) => !kept.some((b) => isPrefix(a, b)));
  paths.sort((a, b) => a.startIndex - b.startIndex || a.steps.length - b.steps.length);
  return paths.map((p) => toPath(model, p));
}

function toPath(model: FlowModel, p: Candidate): FlowPath {
  const start = model.starts[p.startIndex] as FlowStart;
  const last = p.steps[p.steps.length - 1];
  return {
    model: model.name,
    start,
    initial: p.initial,
    steps: p.steps,
    title: `${start.label}: ${last ? `${last.description} → ${last.stateDescription}` : 'start'}`,
  };
}

/** Consecutive steps read as one where that is how a tester types: 'type 1 2 3'. */
export function readableSteps(path: FlowPath): string[] {
  const out: Array<{ text: string; state: string }> = [];
  for (const step of path.steps) {
    const prev = out[out.length - 1];
    const typed = /^type (\S+)$/.exec(step.description);
    if (typed && prev && /^type( \S+)+$/.test(prev.text)) {
      prev.text = `${prev.text} ${typed[1]}`;
      prev.state = step.stateDescription;
    } else {
      out.push({ text: step.description, state: step.stateDescription });
    }
  }
  return out.map((s, i) => `${i + 1}) ${s.text} → ${s.state}`);
}

/** The whole printout of one model: numbered paths with numbered steps. */
export function describeFlowPaths(model: FlowModel, paths: FlowPath[]): string {
  const lines = [`${model.title} (${model.name}): ${paths.length} paths`];
  paths.forEach((path, i) => {
    lines.push(`  ${i + 1}. ${path.title}`);
    lines.push(`     ${readableSteps(path).join('  ')}`);
  });
  return lines.join('\n');
}

/** What the generated paths reach, measured on the generation (the tests measure the run). */
export function plannedCoverage(model: FlowModel, paths: FlowPath[]): Coverage {
  const inventory = machineInventory(model.machine);
  const transitions = new Set(paths.flatMap((p) => p.steps.flatMap((s) => s.transitions)));
  const states = new Set(
    paths.flatMap((p) => [
      ...activeStateIds(model.machine, p.initial),
      ...p.steps.flatMap((s) => activeStateIds(model.machine, s.state)),
    ]),
  );
  const total = [...inventory.transitions.keys()];
  return {
    states: { covered: inventory.states.filter((s) => states.has(s)), total: inventory.states },
    transitions: { covered: total.filter((t) => transitions.has(t)), total },
  };
}
