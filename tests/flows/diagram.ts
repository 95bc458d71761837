import dagre from '@dagrejs/dagre';
import { getStateNodes } from '@xstate/graph';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { machineInventory, transitionKey } from '../model/flow-engine';

/**
 * A machine's state diagram as inline SVG, laid out in layers by dagre (in Node, no browser): every
 * state node a box; a compound state a container around its children, with its own box at the top
 * of it (the transitions that leave or stay in the compound state start there; a grey 'initial'
 * arrow points at its initial child); every transition definition an arrow labelled with its event
 * and guard, the guard's parameters included (one that stays in its state a '↻' line inside the
 * box). Walked transitions are solid green, those listed as not reachable through the UI dotted grey,
 * the rest dashed red, thicker, and with an id (edgeAnchor) the report's list of what was not walked
 * links to.
 */

export type EdgeMark = 'walked' | 'unreachable' | 'missed';

const CHAR_W = 6.4;
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

type AnyTransition = {
  source: AnyStateNode;
  eventType: string;
  // biome-ignore lint/suspicious/noExplicitAny: guards are typed per machine
  guard?: any;
  target?: readonly AnyStateNode[];
};

/** The id of a transition's (or a state's) drawing in the report, from its inventory label. */
export function edgeAnchor(machineId: string, label: string): string {
  return `walk-${machineId}-${label.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

const CLUSTER = 'cluster:';

const eventLabel = (label: string) => {
  // The inventory reads 'a --event [guard]--> b'; the arrow carries 'event [guard]'.
  const m = /--(.+)-->/.exec(label);
  return (m?.[1] ?? label)
    .replace(/^xstate\.(done|error)\.actor\./, '$1: ')
    .replace(/^xstate\.after\.([^.]+)\..*$/, 'after $1');
};

export function machineSvg(
  machine: AnyStateMachine,
  mark: (transitionKey: string) => EdgeMark,
  visitedStates: Set<string>,
): string {
  const g = new dagre.graphlib.Graph({ multigraph: true, compound: true });
  g.setGraph({ rankdir: 'TB', nodesep: 30, ranksep: 60, edgesep: 12, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  const inventory = machineInventory(machine);
  const rootId = machine.root.id;
  const short = (id: string) => (id === rootId ? `${id} (any state)` : id.slice(rootId.length + 1));
  const nodes = [machine.root, ...getStateNodes(machine.root)];
  // Transitions that stay in their state are lines inside the state's box ('↻ event [guard]'),
  // not loops: dagre's self-loops cross their own labels.
  const loops = new Map<string, Array<{ label: string; mark: EdgeMark; anchor: string }>>();
  const moves: Array<{ from: string; to: string; key: string; label: string; anchor: string }> = [];
  for (const node of nodes) {
    const lists: AnyTransition[][] = [...node.transitions.values(), node.always ?? []];
    for (const list of lists) {
      for (const t of list) {
        const key = transitionKey(t);
        const full = inventory.transitions.get(key) ?? key;
        const label = eventLabel(full);
        const anchor = edgeAnchor(machine.id, full);
        const targets = t.target?.length ? t.target.map((n) => n.id) : [];
        if (targets.length === 0 || (targets.length === 1 && targets[0] === node.id))
          loops.set(node.id, [
            ...(loops.get(node.id) ?? []),
            { label: `↻ ${label}`, mark: mark(key), anchor },
          ]);
        for (const to of targets) if (to !== node.id) moves.push({ from: node.id, to, key, label, anchor });
      }
    }
  }
  const rootUsed = loops.has(rootId) || moves.some((m) => m.from === rootId);
  for (const node of nodes) {
    if (node === machine.root && !rootUsed) continue;
    const label = short(node.id) + (node.type === 'final' ? ' ◉' : '');
    const lines = loops.get(node.id) ?? [];
    const widest = Math.max(label.length * 7.2, ...lines.map((l) => l.label.length * 5.9));
    g.setNode(node.id, { label, lines, width: Math.max(70, widest + 20), height: 26 + lines.length * 13 });
  }
  // A compound state: a container (a cluster) holding its own box and its children's. dagre draws
  // no edge to a cluster, so the compound state's arrows start and end at its box.
  const isCompound = (n: AnyStateNode) => n !== machine.root && Object.keys(n.states ?? {}).length > 0;
  for (const node of nodes) {
    if (!isCompound(node)) continue;
    g.setNode(`${CLUSTER}${node.id}`, { label: short(node.id), cluster: true });
    g.setParent(node.id, `${CLUSTER}${node.id}`);
  }
  for (const node of nodes) {
    const parent = node.parent;
    if (!parent || !isCompound(parent)) continue;
    const id = isCompound(node) ? `${CLUSTER}${node.id}` : node.id;
    if (g.hasNode(id)) g.setParent(id, `${CLUSTER}${parent.id}`);
  }
  const edges: Array<{ name: string; mark: EdgeMark | 'initial'; label: string; anchor?: string }> = [];
  for (const node of nodes) {
    if (!g.hasNode(node.id) || node === machine.root) continue;
    const first = node.initial?.target?.[0];
    if (first) {
      const name = `init ${node.id}`;
      g.setEdge(node.id, first.id, { label: '', width: 0, height: 0 }, name);
      edges.push({ name, mark: 'initial', label: '' });
    }
  }
  for (const m of moves) {
    if (!g.hasNode(m.from) || !g.hasNode(m.to)) continue;
    const name = `${m.key} → ${m.to}`;
    g.setEdge(
      m.from,
      m.to,
      { label: m.label, width: m.label.length * CHAR_W, height: 14, labelpos: 'c' },
      name,
    );
    edges.push({ name, mark: mark(m.key), label: m.label, anchor: m.anchor });
  }
  dagre.layout(g);
  const graph = g.graph() as { width?: number; height?: number };
  const width = Math.ceil(graph.width ?? 200);
  const height = Math.ceil(graph.height ?? 100);
  const colour = { walked: '#15803d', unreachable: '#6b7280', missed: '#dc2626', initial: '#9ca3af' };
  const dash = { walked: '', unreachable: '2 4', missed: '6 4', initial: '' };
  const parts: string[] = [];
  parts.push(
    `<defs>${Object.entries(colour)
      .map(
        ([k, c]) =>
          `<marker id="arrow-${k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="${c}"/></marker>`,
      )
      .join('')}</defs>`,
  );
  // The containers first (outermost first), then the arrows, then the boxes over them.
  const depth = (id: string): number => {
    const parent = g.parent(id);
    return parent ? 1 + depth(parent) : 0;
  };
  for (const id of g
    .nodes()
    .filter((n) => n.startsWith(CLUSTER))
    .sort((a, b) => depth(a) - depth(b))) {
    const n = g.node(id) as { x: number; y: number; width: number; height: number };
    const stateId = id.slice(CLUSTER.length);
    const seen = visitedStates.has(stateId);
    parts.push(
      `<rect x="${(n.x - n.width / 2).toFixed(1)}" y="${(n.y - n.height / 2).toFixed(1)}" width="${n.width.toFixed(1)}" height="${n.height.toFixed(1)}" rx="12" fill="${depth(id) % 2 ? '#f3f4f6' : '#f9fafb'}" stroke="${seen ? '#86efac' : '#fca5a5'}" stroke-dasharray="4 3"><title>${esc(short(stateId))} (compound state)</title></rect>`,
    );
  }
  for (const e of g.edges()) {
    const data = g.edge(e) as { points: { x: number; y: number }[]; x?: number; y?: number };
    const info = edges.find((x) => x.name === e.name);
    if (!info) continue;
    const d = data.points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
    const c = colour[info.mark];
    const missed = info.mark === 'missed';
    parts.push(
      `<g${missed && info.anchor ? ` id="${esc(info.anchor)}" class="missed"` : ''}><path d="${d}" fill="none" stroke="${c}" stroke-width="${info.mark === 'walked' ? 1.8 : missed ? 2.4 : 1.2}"${
        dash[info.mark] ? ` stroke-dasharray="${dash[info.mark]}"` : ''
      } marker-end="url(#arrow-${info.mark})"><title>${esc(info.label || 'initial')} (${info.mark})</title></path>`,
    );
    if (info.label && data.x !== undefined && data.y !== undefined)
      parts.push(
        `<text x="${data.x.toFixed(1)}" y="${(data.y + 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="${c}"${missed ? ' font-weight="600"' : ''}>${esc(info.label)}</text>`,
      );
    parts.push('</g>');
  }
  for (const id of g.nodes()) {
    if (id.startsWith(CLUSTER)) continue;
    const n = g.node(id) as {
      x: number;
      y: number;
      width: number;
      height: number;
      label: string;
      lines: Array<{ label: string; mark: EdgeMark; anchor: string }>;
    };
    const seen = visitedStates.has(id) || id === rootId;
    const top = n.y - n.height / 2;
    parts.push(
      `<g${seen ? '' : ` id="${esc(edgeAnchor(machine.id, `state ${id}`))}" class="missed"`}><rect x="${(n.x - n.width / 2).toFixed(1)}" y="${top.toFixed(1)}" width="${n.width}" height="${n.height}" rx="8" fill="${seen ? '#ecfdf5' : '#fef2f2'}" stroke="${seen ? '#15803d' : '#dc2626'}"/>` +
        `<text x="${n.x.toFixed(1)}" y="${(top + 17).toFixed(1)}" text-anchor="middle" font-size="12" font-family="ui-monospace,monospace">${esc(n.label)}</text>` +
        n.lines
          .map(
            (l, i) =>
              `<text${l.mark === 'missed' ? ` id="${esc(l.anchor)}" class="missed" font-weight="600"` : ''} x="${(n.x - n.width / 2 + 8).toFixed(1)}" y="${(top + 31 + i * 13).toFixed(1)}" font-size="10" fill="${colour[l.mark]}"${l.mark === 'walked' ? '' : ' font-style="italic"'}>${esc(l.label)}${l.mark === 'walked' ? '' : l.mark === 'missed' ? ' (not walked)' : ' (not in UI)'}</text>`,
          )
          .join('') +
        '</g>',
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="State diagram of ${esc(machine.id)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui,sans-serif">${parts.join('')}</svg>`;
}
