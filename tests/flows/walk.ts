import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from '@playwright/test';
import type { EventObject } from 'xstate';
import { SESSION_STORAGE_KEY } from '../../src/lib/session-storage';
import { CHROME_FLAGS, CHROME_PATH, DEMO_ADMIN } from '../e2e/support/env';
import {
  activeStateIds,
  generateFlowPaths,
  initialTransitions,
  machineInventory,
  readableSteps,
  statesOnlyThrough,
} from '../model/flow-engine';
import { machineSvg } from './diagram';
import { MailClient } from './mail-client';
import { startMailbox } from './mailbox';
import { type MachineResult, type PathResult, type RunReport, writeReport } from './report';
import { parseOnly, reach, selectWalks } from './select';
import { buildSpa, freePort, REPO_ROOT, startServerProcess } from './stack';
import {
  countAssertions,
  Edge,
  freshStart,
  type MachineWalk,
  STEP_TIMEOUT,
  stateName,
  type WalkContext,
} from './walk-kit';
import { FlowsApi, makeWorld, productionRefusal, type World } from './world';

/**
 * `npm run test:flows`: every path generated from every flow machine (tests/model) walked in the
 * real SPA in Chromium, against FLOWS_BASE_URL with codes read from FLOWS_MAILBOX_URL, or against a
 * server and mailbox it starts itself when neither is given. Prints each path and each machine's
 * coverage, writes flows-report/index.html, and fails when a path fails, a machine under
 * src/machines has no walk, or a state or transition is not walked (unless its walk lists it, with
 * the reason, as not reachable through the UI). docs/decisions/026-flow-walk-and-mailbox.md.
 */

const MACHINES_DIR = join(REPO_ROOT, 'src/machines');
/** One walk per machine, next to this file: src/ never imports tests/ (docs/decisions/055). */
const WALKS_DIR = join(REPO_ROOT, 'tests/flows/walks');
const env = process.env;
const started = Date.now();
const runId =
  env.FLOWS_RUN_ID || new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
const reportDir = resolve(REPO_ROOT, env.FLOWS_REPORT_DIR || 'flows-report');
const only = parseOnly(env.FLOWS_ONLY);
const admin = {
  email: env.FLOWS_ADMIN_EMAIL || DEMO_ADMIN.email,
  password: env.FLOWS_ADMIN_PASSWORD || DEMO_ADMIN.password,
};

const cleanups: Array<() => Promise<void>> = [];
const cleanup = async () => {
  for (const stop of cleanups.reverse()) await stop().catch(() => {});
};

async function target(): Promise<{ baseUrl: string; mailboxUrl: string }> {
  const baseUrl = env.FLOWS_BASE_URL;
  const mailboxUrl = env.FLOWS_MAILBOX_URL;
  if (baseUrl && mailboxUrl) return { baseUrl: baseUrl.replace(/\/+$/, ''), mailboxUrl };
  if (baseUrl || mailboxUrl)
    throw new Error(
      'Set both FLOWS_BASE_URL and FLOWS_MAILBOX_URL (a deployment and the mailbox it sends to), or neither',
    );
  // Neither: our own mailbox and server on free ports, on a temporary embedded database.
  const mailbox = await startMailbox({ smtpPort: 0, httpPort: 0 });
  cleanups.push(() => mailbox.close());
  const tmp = mkdtempSync(join(tmpdir(), 'flows-'));
  cleanups.push(async () => rmSync(tmp, { recursive: true, force: true }));
  const spaDir = join(REPO_ROOT, 'tests/.tmp/flows-dist');
  if (!env.FLOWS_SKIP_BUILD || !existsSync(join(spaDir, 'index.html'))) buildSpa(spaDir);
  const server = await startServerProcess({
    port: await freePort(),
    dataDir: join(tmp, 'data'),
    spaDir,
    smtpUrl: mailbox.smtpUrl,
  });
  cleanups.push(server.stop);
  console.log(`started a server at ${server.url} and a capture mailbox at ${mailbox.httpUrl}`);
  return { baseUrl: server.url, mailboxUrl: mailbox.httpUrl };
}

/** Every machine file and its walk (a machine without one is a failure, not a silent gap). */
async function discoverWalks(problems: string[]): Promise<MachineWalk[]> {
  const found: Array<{ stem: string; name: string; walk?: MachineWalk }> = [];
  const stems = readdirSync(MACHINES_DIR)
    .filter((f) => f.endsWith('.machine.ts'))
    .map((f) => f.slice(0, -'.machine.ts'.length))
    .sort();
  for (const stem of stems) {
    const file = join(WALKS_DIR, `${stem}.walk.ts`);
    if (!existsSync(file)) {
      found.push({ stem, name: stem });
      continue;
    }
    const walk = ((await import(pathToFileURL(file).href)) as { walk: MachineWalk }).walk;
    found.push({ stem, name: walk.model.name, walk });
  }
  // FLOWS_ONLY by the report's names or the file names; an unknown name stops the run here.
  const walks: MachineWalk[] = [];
  for (const { stem, walk } of selectWalks(only, found)) {
    if (walk) walks.push(walk);
    else problems.push(`src/machines/${stem}.machine.ts has no walk (tests/flows/walks/${stem}.walk.ts)`);
  }
  return walks;
}

async function walkMachine(
  browser: Browser,
  walk: MachineWalk,
  shared: { baseUrl: string; api: FlowsApi; mail: MailClient; world: World },
): Promise<MachineResult> {
  const { model, machine } = walk;
  // Lanes run side by side: a machine's lines are printed together when it is done.
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const inventory = machineInventory(machine);
  const coveredTransitions = new Set<string>();
  // Which steps were answered at the edge by a fixture (the report lists them).
  const fixtures = new Set<string>();
  // Which steps sent the browser's request on to the server with a field changed at the edge.
  const edited = new Set<string>();
  const visited = new Set<string>();
  // A transition cover of the model (every state and transition, as few paths as practical: each
  // costs a browser page), over the events the screens offer and the paths the browser can walk.
  const paths = generateFlowPaths(
    walk.offers
      ? {
          ...model,
          events: (s) => model.events(s).filter((e) => walk.offers?.(s, e) ?? true),
          abstract: (s) => ({ ...model.abstract(s), ...walk.abstract?.(s) }),
        }
      : model,
    { cover: 'transitions', keep: (p) => !walk.unwalkable?.(p), goals: walk.goals },
  );
  const results: PathResult[] = [];
  log(`\n${model.title} (${model.name}): ${paths.length} paths`);
  // One context for the machine's paths, each started afresh (freshStart).
  const context = await browser.newContext({
    baseURL: shared.baseUrl,
    viewport: { width: 1280, height: 900 },
  });
  // A step's wait (FLOWS_STEP_TIMEOUT_MS), as for the checks' expect.
  context.setDefaultTimeout(STEP_TIMEOUT);
  // A page load on a busy shared machine can pass 10 s.
  context.setDefaultNavigationTimeout(30_000);
  for (const [index, path] of paths.entries()) {
    const steps = readableSteps(path);
    const base = { number: index + 1, title: path.title, steps: [] as PathResult['steps'] };
    const reason = walk.unwalkable?.(path) ?? null;
    if (reason) {
      results.push({
        ...base,
        status: 'not walkable',
        reason,
        ms: 0,
        steps: path.steps.map((s) => ({ text: s.description, state: s.stateDescription, ms: 0, ok: true })),
      });
      log(`  - ${index + 1}. not walkable (${reason}): ${steps.join('  ')}`);
      continue;
    }
    const t0 = Date.now();
    const session = JSON.stringify(await shared.api.freshSession(walk.signInAs?.(shared.world)));
    const unready = await freshStart(context, SESSION_STORAGE_KEY, session).then(
      () => null,
      (e: Error) => e,
    );
    const page = await context.newPage();
    const edge = new Edge(walk.effects);
    await edge.install(page);
    const w: WalkContext = { page, context, edge, data: {}, ...shared };
    const result: PathResult = { ...base, status: 'passed', ms: 0 };
    let current = -1;
    try {
      if (unready) throw unready;
      await walk.begin(w, path);
      for (const f of edge.fixtures) fixtures.add(`opening the screen (${f})`);
      for (const f of edge.edited) edited.add(`opening the screen (${f})`);
      for (const id of activeStateIds(machine, path.initial)) visited.add(id);
      // The screen opened in the path's first state: the machine's start took its eventless transition.
      // (and passed through its first state, a transient one like the session's `restoring`).
      for (const t of initialTransitions(machine, path.initial)) {
        coveredTransitions.add(t);
        visited.add(t.split(' ')[0] as string);
      }
      for (const [i, step] of path.steps.entries()) {
        current = i;
        const s0 = Date.now();
        const sentBefore = edge.sent;
        edge.fixtures = [];
        edge.edited = [];
        await walk.step(w, step.event as EventObject & Record<string, unknown>);
        for (const f of edge.fixtures) fixtures.add(`${step.description} (${f})`);
        for (const f of edge.edited) edited.add(`${step.description} (${f})`);
        // A check that asserts nothing cannot fail: the path fails instead (issue 30).
        if ((await countAssertions(() => walk.check(w, step.state))) === 0)
          throw new Error(`the check of state ${stateName(step.state.value)} asserted nothing`);
        await walk.after?.(w, step.state, sentBefore);
        result.steps.push({
          text: step.description,
          state: step.stateDescription,
          ms: Date.now() - s0,
          ok: true,
        });
        for (const t of step.transitions) {
          coveredTransitions.add(t);
          // A transient state the step passed through (left by its eventless transition) was shown.
          if (t.split(' ')[1] === 'always') visited.add(t.split(' ')[0] as string);
        }
        for (const id of activeStateIds(machine, step.state)) visited.add(id);
      }
    } catch (error) {
      result.status = 'failed';
      result.error = (error as Error).message.split('\n').slice(0, 12).join('\n');
      if (current >= 0) {
        result.failedStep = current;
        const step = path.steps[current]!;
        result.steps.push({ text: step.description, state: step.stateDescription, ms: 0, ok: false });
        for (const rest of path.steps.slice(current + 1))
          result.steps.push({ text: rest.description, state: rest.stateDescription, ms: 0, ok: true });
      } else result.error = `Opening the screen failed: ${result.error}`;
      result.screenshot = await page
        .screenshot({ fullPage: false })
        .then((b) => b.toString('base64'))
        .catch(() => undefined);
    } finally {
      await context.setOffline(false).catch(() => {});
      await edge.release();
      for (const open of context.pages()) await open.close().catch(() => {});
    }
    result.ms = Date.now() - t0;
    results.push(result);
    const mark = result.status === 'passed' ? '✓' : '✗';
    log(`  ${mark} ${index + 1}. (${(result.ms / 1000).toFixed(1)} s) ${steps.join('  ')}`);
    if (result.status === 'failed')
      log(`      step ${(result.failedStep ?? -1) + 1} failed: ${result.error?.split('\n')[0]}`);
  }

  await context.close();
  const unreachable = walk.unreachable ?? {};
  const totalTransitions = [...inventory.transitions.keys()];
  const missingTransitions = totalTransitions.filter(
    (t) => !coveredTransitions.has(t) && !(t in unreachable),
  );
  const unreachableStates = statesOnlyThrough(inventory, new Set(Object.keys(unreachable)));
  const missingStates = inventory.states.filter((s) => !visited.has(s) && !unreachableStates.includes(s));
  const walked = totalTransitions.filter((t) => coveredTransitions.has(t)).length;
  const failed = results.filter((r) => r.status === 'failed').length;
  const stale = Object.keys(unreachable).filter((t) => !inventory.transitions.has(t));
  const line =
    `${model.name}: ${results.filter((r) => r.status === 'passed').length}/${paths.length} paths passed, ` +
    `states ${inventory.states.length - missingStates.length - unreachableStates.length}/${inventory.states.length}` +
    (unreachableStates.length
      ? ` (+${unreachableStates.length} only behind transitions not reachable through the UI)`
      : '') +
    ', ' +
    `transitions ${walked}/${totalTransitions.length} walked` +
    (Object.keys(unreachable).length
      ? ` (+${Object.keys(unreachable).length} not reachable through the UI)`
      : '');
  log(line);
  const missing = [
    ...missingStates.map((s) => `state ${s}`),
    ...missingTransitions.map((t) => inventory.transitions.get(t) ?? t),
    ...stale.map((t) => `listed as unreachable but not in the machine: ${t}`),
  ];
  if (missing.length) log(`  not walked: ${missing.join('; ')}`);
  if (fixtures.size) log(`  answered at the edge (fixtures): ${[...fixtures].sort().join('; ')}`);
  if (edited.size)
    log(`  sent on edited at the edge (the server's answer): ${[...edited].sort().join('; ')}`);
  console.log(lines.join('\n'));
  return {
    name: model.name,
    machineId: machine.id,
    file: walk.file,
    title: model.title,
    svg: machineSvg(
      machine,
      (key) => (coveredTransitions.has(key) ? 'walked' : key in unreachable ? 'unreachable' : 'missed'),
      visited,
    ),
    paths: results,
    states: {
      covered: inventory.states.length - missingStates.length - unreachableStates.length,
      total: inventory.states.length,
      missing: missingStates,
    },
    transitions: {
      covered: walked,
      total: totalTransitions.length,
      missing: [...missingTransitions.map((t) => inventory.transitions.get(t) ?? t), ...stale],
    },
    fixtures: [...fixtures].sort(),
    edited: [...edited].sort(),
    unreachable: Object.entries(unreachable).map(([t, why]) => ({
      transition: inventory.transitions.get(t) ?? t,
      reason: why,
    })),
    ok: failed === 0 && missing.length === 0,
  };
}

async function main(): Promise<boolean> {
  const problems: string[] = [];
  // The walks first: an unknown FLOWS_ONLY name stops the run before a server is started.
  const walks = await discoverWalks(problems);
  const { baseUrl, mailboxUrl } = await target();
  const api = new FlowsApi(baseUrl, admin);
  const health = await reach('server', baseUrl, 'Check FLOWS_BASE_URL and that the server is running.', () =>
    api.health(),
  );
  const refusal = productionRefusal(baseUrl, health.environment, env.FLOWS_ALLOW_PRODUCTION);
  if (refusal) throw new Error(refusal);
  const mail = new MailClient(mailboxUrl);
  // The mailbox answers (or this throws before any data is made).
  await reach('mailbox', mailboxUrl, 'Check FLOWS_MAILBOX_URL (a Mailpit-compatible API).', () =>
    mail.search(admin.email),
  );
  const world = await makeWorld(api, mail, runId);
  console.log(
    `walking ${baseUrl} (${health.environment ?? 'environment not reported'}), mail from ${mailboxUrl}; ` +
      `this run's data: ${world.tag} (partner ${world.partner.id}, customer ${world.customer.id})`,
  );
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  cleanups.push(() => browser.close());
  // Walks in different lanes use different customers and accounts (their mail and rate limits do
  // not meet), so the lanes run side by side; a lane walks its machines one path at a time.
  const lanes = new Map<number, MachineWalk[]>();
  for (const walk of walks) lanes.set(walk.lane ?? 0, [...(lanes.get(walk.lane ?? 0) ?? []), walk]);
  const done = new Map<MachineWalk, MachineResult>();
  await Promise.all(
    [...lanes.values()].map(async (lane) => {
      for (const walk of lane)
        done.set(walk, await walkMachine(browser, walk, { baseUrl, api, mail, world }));
    }),
  );
  const machines = walks.map((walk) => done.get(walk) as MachineResult);
  for (const p of problems) console.log(`✗ ${p}`);
  const ok = problems.length === 0 && machines.every((m) => m.ok);
  const report: RunReport = {
    runId,
    tag: world.tag,
    target: baseUrl,
    mailbox: mailboxUrl,
    startedAt: new Date(started).toISOString(),
    ms: Date.now() - started,
    machines,
    problems,
    ok,
  };
  const file = writeReport(reportDir, report);
  console.log(`\n${machines.map((m) => `${m.name} ${m.ok ? 'ok' : 'FAILING'}`).join(', ')}`);
  console.log(`report: ${file}`);
  const paths = machines.flatMap((m) => m.paths);
  // Failed: the failed paths, plus each machine without a walk and each walked machine short of coverage.
  const failed =
    paths.filter((p) => p.status === 'failed').length +
    problems.length +
    machines.filter((m) => !m.ok && m.paths.every((p) => p.status !== 'failed')).length;
  console.log(`flows: ${paths.filter((p) => p.status === 'passed').length} passed, ${failed} failed`);
  return ok;
}

main()
  .then(async (ok) => {
    await cleanup();
    process.exit(ok ? 0 : 1);
  })
  .catch(async (error) => {
    console.error(error instanceof Error ? error.message : error);
    await cleanup();
    process.exit(1);
  });
