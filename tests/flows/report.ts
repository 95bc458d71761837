import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { edgeAnchor } from './diagram';

/**
 * flows-report/index.html: one self-contained page (inline SVG, inline CSS, screenshots as data
 * URLs, no script) a tester can attach to a ticket.
 */

export interface StepResult {
  text: string;
  state: string;
  ms: number;
  ok: boolean;
}

export interface PathResult {
  number: number;
  title: string;
  status: 'passed' | 'failed' | 'not walkable';
  reason?: string;
  ms: number;
  steps: StepResult[];
  failedStep?: number;
  error?: string;
  screenshot?: string;
}

export interface MachineResult {
  name: string;
  /** The machine's own id (the diagram's anchors: edgeAnchor). */
  machineId: string;
  file: string;
  title: string;
  svg: string;
  paths: PathResult[];
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; missing: string[] };
  unreachable: Array<{ transition: string; reason: string }>;
  /** The steps answered at the browser's edge by the model's fixture, not by the server walked. */
  fixtures: string[];
  /**
   * The steps whose request went on to the server walked with a field changed at the browser's edge
   * (a wrong code, an amount over the balance, an address the server refuses): the answer is the server's.
   */
  edited: string[];
  ok: boolean;
}

export interface RunReport {
  runId: string;
  tag: string;
  target: string;
  mailbox: string;
  startedAt: string;
  ms: number;
  machines: MachineResult[];
  problems: string[];
  ok: boolean;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function pathHtml(p: PathResult): string {
  const cls = p.status === 'passed' ? 'pass' : p.status === 'failed' ? 'fail' : 'skip';
  const steps = p.steps
    .map(
      (s, i) =>
        `<li class="${s.ok ? '' : 'bad'}${p.failedStep === i ? ' failing' : ''}">${esc(s.text)} <span class="arrow">→</span> ${esc(s.state)} <span class="ms">${s.ms} ms</span></li>`,
    )
    .join('');
  return `<details class="path ${cls}"${p.status === 'failed' ? ' open' : ''}><summary><span class="badge ${cls}">${p.status}</span> ${p.number}. ${esc(p.title)} <span class="ms">${secs(p.ms)}</span></summary>
${p.reason ? `<p>${esc(p.reason)}</p>` : ''}<ol>${steps}</ol>
${p.error ? `<p class="error">${p.failedStep !== undefined ? `Step ${p.failedStep + 1} failed: ` : ''}${esc(p.error)}</p>` : ''}
${p.screenshot ? `<img alt="Screen when path ${p.number} failed" src="data:image/png;base64,${p.screenshot}">` : ''}</details>`;
}

function machineHtml(m: MachineResult): string {
  const passed = m.paths.filter((p) => p.status === 'passed').length;
  const failed = m.paths.filter((p) => p.status === 'failed').length;
  const skipped = m.paths.length - passed - failed;
  const missing = [...m.states.missing.map((s) => `state ${s}`), ...m.transitions.missing];
  return `<section id="${esc(m.name)}"><h2>${esc(m.title)} <small>(${esc(m.name)}, src/machines/${esc(m.file)}.machine.ts)</small> <span class="badge ${m.ok ? 'pass' : 'fail'}">${m.ok ? 'ok' : 'failing'}</span></h2>
<p>States ${m.states.covered}/${m.states.total}, transitions ${m.transitions.covered}/${m.transitions.total} walked; paths: ${passed} passed, ${failed} failed, ${skipped} not walkable.</p>
<label class="zoom"><input type="checkbox"> Actual size (the diagram fits the page until this is ticked)</label>
<div class="diagram">${m.svg}</div>
<p class="legend"><span style="color:#15803d">━ walked</span> · <span style="color:#dc2626">╍ not walked</span> · <span style="color:#6b7280">┈ not reachable through the UI</span> · <span style="color:#9ca3af">━ initial state</span></p>
${
  missing.length
    ? `<p class="error">Not walked (each links to its place in the diagram, thick dashed red there):</p><ul class="error">${missing
        .map((label) =>
          label.startsWith('listed as unreachable')
            ? `<li>${esc(label)}</li>`
            : `<li><a href="#${esc(edgeAnchor(m.machineId, label))}">${esc(label)}</a></li>`,
        )
        .join('')}</ul>`
    : ''
}
${m.unreachable.length ? `<p>Not reachable through the UI:</p><ul>${m.unreachable.map((u) => `<li>${esc(u.transition)}: ${esc(u.reason)}</li>`).join('')}</ul>` : ''}
${m.fixtures.length ? `<p>Answered at the browser's edge (a fixture: a fault no request from outside makes), not by the server walked:</p><ul>${m.fixtures.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>` : '<p>Every server answer came from the server walked.</p>'}
${m.edited.length ? `<p>Sent on to the server walked with a field changed at the browser's edge (the answer and its words are the server's own):</p><ul>${m.edited.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>` : ''}
${m.paths.map(pathHtml).join('\n')}</section>`;
}

export function renderReport(r: RunReport): string {
  const toc = r.machines
    .map(
      (m) =>
        `<li><a href="#${esc(m.name)}">${esc(m.name)}</a>: ${m.paths.filter((p) => p.status === 'passed').length}/${m.paths.length} paths, states ${m.states.covered}/${m.states.total}, transitions ${m.transitions.covered}/${m.transitions.total} <span class="badge ${m.ok ? 'pass' : 'fail'}">${m.ok ? 'ok' : 'failing'}</span></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flow walk ${esc(r.runId)}: ${r.ok ? 'passed' : 'failed'}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#111827;max-width:1400px}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.5rem;border-top:1px solid #e5e7eb;padding-top:1rem}small{color:#6b7280;font-weight:normal}
.badge{display:inline-block;border-radius:4px;padding:0 .4rem;font-size:.8rem;color:#fff}.badge.pass{background:#15803d}.badge.fail{background:#dc2626}.badge.skip{background:#6b7280}
.diagram{overflow:auto;border:1px solid #e5e7eb;border-radius:6px;padding:.5rem;background:#fff;max-height:80vh}
.zoom:not(:has(input:checked))+.diagram svg{max-width:100%;height:auto}.zoom{display:block;margin:.2rem 0;font-size:.85rem}
.diagram :target path,.diagram :target rect{stroke-width:6;stroke:#dc2626}.diagram text:target{font-size:14px;fill:#dc2626;text-decoration:underline}
details.path{margin:.3rem 0;border-left:4px solid #d1d5db;padding-left:.6rem}details.path.fail{border-color:#dc2626}details.path.pass{border-color:#15803d}
summary{cursor:pointer}.ms{color:#6b7280;font-size:.8rem}.arrow{color:#6b7280}li.failing{color:#dc2626;font-weight:600}
.error{color:#b91c1c;white-space:pre-wrap}img{max-width:100%;border:1px solid #e5e7eb;margin:.5rem 0}.legend{font-size:.85rem}
</style></head><body>
<h1>Flow walk <code>${esc(r.runId)}</code>: <span class="badge ${r.ok ? 'pass' : 'fail'}">${r.ok ? 'passed' : 'failed'}</span></h1>
<p>Deployment <code>${esc(r.target)}</code>, mailbox <code>${esc(r.mailbox)}</code>; started ${esc(r.startedAt)}, took ${secs(r.ms)}. The walk's data is named <code>${esc(r.tag)}</code> (partner, visits, rewards).</p>
${r.problems.length ? `<p class="error">${r.problems.map(esc).join('<br>')}</p>` : ''}
<ul>${toc}</ul>
${r.machines.map(machineHtml).join('\n')}
</body></html>`;
}

export function writeReport(dir: string, r: RunReport): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.html');
  writeFileSync(file, renderReport(r));
  writeFileSync(
    join(dir, 'summary.json'),
    JSON.stringify(
      {
        ...r,
        machines: r.machines.map(({ svg: _svg, ...m }) => ({
          ...m,
          paths: m.paths.map(({ screenshot: _s, ...p }) => p),
        })),
      },
      null,
      2,
    ),
  );
  return file;
}
