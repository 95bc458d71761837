import type { Response } from '@playwright/test';
import { type AnyMachineSnapshot, assign, createMachine, type EventObject } from 'xstate';
import type { QueuedEntry } from '../../../src/db/app-db';
import { OUTBOX_MESSAGES } from '../../../src/lib/outbox';
import type { ConflictOutput } from '../../../src/machines/conflict.machine';
import { nextPending, type OutboxContext, outboxMachine } from '../../../src/machines/outbox.machine';
import type { FlowModel, FlowPath } from '../../model/flow-engine';
import {
  droppedChoice,
  keptChoice,
  outboxConflictError,
  outboxModel,
  outboxNetworkError,
  outboxServerError,
  outboxValidationError,
} from '../../model/outbox-model';
import { type Answer, expect, type MachineWalk, setNetwork, type WalkContext } from '../walk-kit';

/**
 * The outbox walked in the browser: edits of the run's partner (its address) made in the Edit
 * Partner form, kept on the device when the network is off or the save gets no answer (or behind an
 * edit of the record still queued), and sent by the outbox; the Pending changes list's Retry and
 * Discard; the 409 dialog after the partner was changed through the API meanwhile. The send is held
 * at the browser's edge until the path says how it ends: the real server applies it, a Network
 * Error, the model's 503 (the real server gives it only on a fault: a fixture), or the real server's
 * 400: the queued edit's send goes on with its address emptied (the Edit Partner form never lets an
 * empty address go), and the server refuses it with its own words and changes nothing.
 *
 * What IndexedDB holds is not a choice a path can make: it is what the steps before queued, sent,
 * marked or discarded. So the paths are generated on a shadow of the machine (same states and
 * transitions, the same keys for coverage) whose `entries` follow IndexedDB at each step that writes
 * it, and reading the outbox yields exactly that. IndexedDB's own failures cannot be caused from a
 * page (the browser gives no way to fail one transaction), so they are listed as not reachable.
 */

const entry = (id: number): QueuedEntry => ({
  id,
  idempotencyKey: `walk-${id}`,
  method: 'PATCH',
  path: '/admin/partners/update-record',
  body: {},
  createdAt: id,
  userId: 1,
  label: 'Edit partner',
  entity: 'partner',
  entityId: 1,
  baseVersion: null,
  status: 'pending',
  error: null,
});

type Ctx = OutboxContext;

/** IndexedDB after a write: a new edit queued, the sent one gone, an entry marked or removed. */
const queued = assign(({ context }: { context: Ctx }) => ({
  entries: [...context.entries, entry(Math.max(0, ...context.entries.map((e) => e.id)) + 1)],
}));
const sentOne = assign(({ context }: { context: Ctx }) => ({
  entries: context.entries.filter((e) => e !== nextPending(context.entries)),
}));
const marked = (status: 'failed' | 'pending') =>
  assign(({ context }: { context: Ctx }) => ({
    entries: context.entries.map((e) =>
      e.id === context.target
        ? { ...e, status, error: status === 'failed' ? (context.error ?? null) : null }
        : e,
    ),
  }));
const removed = assign(({ context }: { context: Ctx }) => ({
  entries: context.entries.filter((e) => e.id !== context.target),
}));

// biome-ignore lint/suspicious/noExplicitAny: the machine's config, copied with bookkeeping actions added
type Config = any;
const withActions = (t: Config, action: unknown): Config => {
  const base = typeof t === 'string' ? { target: t } : t;
  return { ...base, actions: [...[base.actions ?? []].flat(), action] };
};

/** The outbox machine with IndexedDB's contents kept in `entries` (only for generating the paths). */
function shadowMachine() {
  const config = outboxMachine.config as Config;
  const s = config.states;
  const states = {
    ...s,
    idle: {
      ...s.idle,
      on: { ...s.idle.on, 'outbox.changed': withActions(s.idle.on['outbox.changed'], queued) },
    },
    backoff: {
      ...s.backoff,
      on: { ...s.backoff.on, 'outbox.changed': withActions(s.backoff.on['outbox.changed'], queued) },
    },
    sending: {
      ...s.sending,
      invoke: { ...s.sending.invoke, onDone: withActions(s.sending.invoke.onDone, sentOne) },
    },
    failing: {
      ...s.failing,
      invoke: { ...s.failing.invoke, onDone: withActions(s.failing.invoke.onDone, marked('failed')) },
    },
    retrying: {
      ...s.retrying,
      invoke: { ...s.retrying.invoke, onDone: withActions(s.retrying.invoke.onDone, marked('pending')) },
    },
    discarding: {
      ...s.discarding,
      invoke: { ...s.discarding.invoke, onDone: withActions(s.discarding.invoke.onDone, removed) },
    },
  };
  return createMachine(
    { ...config, states },
    outboxMachine.implementations as Config,
  ) as typeof outboxMachine;
}

const done = (id: string, output?: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error });

/** The events a user, the server and the page can make in a state. */
function browserEvents(s: AnyMachineSnapshot): EventObject[] {
  const c = s.context as Ctx;
  const value = String(s.value);
  // Reading the outbox yields what IndexedDB holds; nothing else happens in that instant.
  if (value === 'loading') return [done('loadEntries', c.entries)];
  const settled = value === 'idle' || value === 'backoff' || value === 'conflict';
  return [
    done('sendEntry', { message: 'Record updated successfully' }),
    fail('sendEntry', outboxNetworkError),
    fail('sendEntry', outboxServerError),
    fail('sendEntry', outboxConflictError),
    fail('sendEntry', outboxValidationError),
    // The pause is 2 s after a first failed try, 4 s after a second: the probe's 'the link is back'
    // (about 2 s) is walked where it comes before the pause ends.
    ...(c.attempt === 1 ? [done('retryTimer')] : []),
    ...(c.attempt >= 2 ? [done('linkBack')] : []),
    done('markEntry'),
    done('discardEntry'),
    // The 409 dialog's choice (the conflict machine, its own walk in conflict.walk.ts).
    ...(value === 'conflict' ? [done('choice', keptChoice), done('choice', droppedChoice)] : []),
    ...(c.entries.length < 2 && value !== 'conflict' ? [{ type: 'outbox.changed' }] : []),
    ...c.entries.filter((e) => e.status === 'failed').map((e) => ({ type: 'outbox.retry', id: e.id })),
    // The 409 dialog is modal: the list behind it is out of reach there.
    ...(value === 'conflict' ? [] : c.entries.map((e) => ({ type: 'outbox.discard', id: e.id }))),
    // The network changes while the queue waits (not in the instant of an IndexedDB write).
    ...(settled ? [{ type: c.online ? 'network.offline' : 'network.online' }] : []),
  ];
}

const browserModel: FlowModel<typeof outboxMachine> = {
  ...outboxModel,
  machine: shadowMachine(),
  starts: [{ label: 'Signed in, online, nothing queued', input: { userId: 1, online: true } }],
  events: browserEvents,
  abstract: (s) => {
    const c = s.context as Ctx;
    return {
      online: c.online,
      entries: c.entries.map((e) => e.status).join(','),
      attempt: Math.min(c.attempt, 2),
    };
  },
  eventCase: (e) => {
    const ev = e as EventObject & { output?: unknown; error?: { status?: number } };
    if (e.type === 'xstate.done.actor.loadEntries') return e.type;
    if (e.type === 'xstate.done.actor.choice') return `${e.type} ${(ev.output as ConflictOutput).choice}`;
    return `${e.type}${ev.error ? ` ${ev.error.status}` : ''}`;
  },
  describeEvent: (e) => {
    const ev = e as EventObject & { output?: QueuedEntry[]; id?: number };
    switch (e.type) {
      case 'xstate.done.actor.loadEntries':
        return `the outbox is read (${ev.output?.length ?? 0} queued)`;
      case 'outbox.changed':
        return 'edit the address in Edit Partner and Submit (kept on the device)';
      case 'outbox.retry':
        return `press Retry on queued edit ${ev.id}`;
      case 'outbox.discard':
        return `press Discard on queued edit ${ev.id}`;
      case 'xstate.error.actor.sendEntry':
        if ((e as { error?: unknown }).error === outboxConflictError)
          return 'the partner is changed through the API, then the server answers 409';
        return outboxModel.describeEvent(e);
      default:
        return outboxModel.describeEvent(e);
    }
  },
  describeState: (s) => {
    const c = s.context as Ctx;
    const pending = c.entries.filter((e) => e.status !== 'failed').length;
    const failed = c.entries.length - pending;
    const where: Record<string, string> = {
      loading: 'reading the outbox',
      idle: `waiting, ${pending} to send${failed ? `, ${failed} refused` : ''}`,
      sending: 'sending the oldest edit',
      backoff: `try ${c.attempt} failed, waiting before the next`,
      failing: 'marking the edit refused',
      retrying: 'marking the edit to send again',
      discarding: 'removing the edit',
      conflict: '409 dialog: the partner changed on the server',
    };
    return `${where[String(s.value)] ?? String(s.value)}${c.online ? '' : ', offline'}`;
  },
};

const partnerPage = (w: WalkContext) => `/dashboard/partners/${w.world.partner.id}`;
const bar = (w: WalkContext) => w.page.getByRole('region', { name: 'Changes not sent yet' });
const conflictDialog = (w: WalkContext) =>
  w.page.getByRole('dialog', { name: 'This record changed on the server' });

/** Edit Partner: a new address, Submit; kept on the device (offline, behind a queued edit, or no answer). */
async function queueEdit(w: WalkContext, c: Ctx) {
  const page = w.page;
  await expect(page.getByRole('heading', { name: w.world.partner.organizationName })).toBeVisible();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit Partner' })).toBeVisible();
  await expect(page.getByLabel('Address')).toHaveValue(/./);
  w.data.edits = Number(w.data.edits ?? 0) + 1;
  const address = `${w.world.tag} outbox edit ${w.data.edits}, ${Date.now()}`;
  // The queue's new entry gets the next id (as the shadow machine's `queued`): its address is known.
  addresses(w).set(Math.max(0, ...c.entries.map((e) => e.id)) + 1, address);
  await page.getByLabel('Address').fill(address);
  await page.getByRole('button', { name: 'Submit' }).click();
  // Online with nothing queued the form sends at once: that save gets no answer, so it is kept.
  if (c.online && c.entries.length === 0) await w.edge.fail('sendEntry', outboxNetworkError);
  await expect(page.getByText(OUTBOX_MESSAGES.savedOffline).last()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${partnerPage(w)}$`));
}

/** The address each queued edit of the path sets, by its entry id. */
const addresses = (w: WalkContext) => w.data.addresses as Map<number, string>;

/**
 * Every send of an edit to the server, by the address it sets: the requests, and those the server
 * answered 2xx (applied). An edit is applied once: no request carries it again after one was
 * applied (the same Idempotency-Key or a new one), so a double send is seen even when the server's
 * idempotency would hide it.
 */
interface Sends {
  requests: Map<string, number>;
  applied: Map<string, number>;
  afterApplied: string[];
}
const sends = (w: WalkContext) => w.data.sends as Sends;
const addressOf = (body: string | null) => {
  try {
    return String((JSON.parse(body ?? '{}') as { address?: unknown }).address ?? '');
  } catch {
    return '';
  }
};
function countSends(w: WalkContext) {
  const record: Sends = { requests: new Map(), applied: new Map(), afterApplied: [] };
  w.data.sends = record;
  const isSend = (method: string, url: string) =>
    method === 'PATCH' && new URL(url).pathname.endsWith('/admin/partners/update-record');
  w.page.on('request', (r) => {
    if (!isSend(r.method(), r.url())) return;
    const address = addressOf(r.postData());
    if (record.applied.get(address)) record.afterApplied.push(address);
    record.requests.set(address, (record.requests.get(address) ?? 0) + 1);
  });
  w.page.on('response', (r) => {
    if (!isSend(r.request().method(), r.url()) || !r.ok()) return;
    const address = addressOf(r.request().postData());
    record.applied.set(address, (record.applied.get(address) ?? 0) + 1);
  });
}

/** The partner on the server: its address and version (updatedAt), read through the API. */
const serverPartner = (w: WalkContext) =>
  w.api.call<{ address: string; updatedAt: string }>('GET', `/admin/partners/${w.world.partner.id}`);

/** Opens Pending changes and presses a button on the queued edit `id` (by its place in the queue). */
async function onQueued(w: WalkContext, c: Ctx, id: number, button: 'Retry' | 'Discard') {
  const index = c.entries.findIndex((e) => e.id === id);
  await bar(w)
    .getByRole('button', { name: /Pending changes/ })
    .click();
  const list = w.page.getByRole('dialog', { name: 'Pending changes' });
  const item = list.getByRole('listitem').nth(index);
  await expect(item.getByRole('button', { name: button })).toBeEnabled();
  await item.getByRole('button', { name: button }).click();
  await w.page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
}

/** The path's next event (after the step being done). */
const following = (w: WalkContext) => (w.data.steps as FlowPath['steps'])[Number(w.data.i)]?.event;

/**
 * From the second failed send on, the next probe of the server gets no answer and the one after
 * answers: the link is back (about 2 s later, within the machine's 4 s pause). Set before the send
 * fails, so the walk sees whether the queue sent again before that answer.
 */
async function dropNextProbe(w: WalkContext) {
  let dropped = false;
  w.data.sentAtDrop = w.edge.sent;
  w.data.linkBack = new Promise<number>((resolve) => {
    const onResponse = (r: Response) => {
      if (!dropped || !r.url().endsWith('/api/v1/health') || !r.ok()) return;
      w.page.off('response', onResponse);
      resolve(w.edge.sent);
    };
    w.page.on('response', onResponse);
  });
  await w.page.route(
    '**/api/v1/health',
    (route) => {
      dropped = true;
      return route.abort('internetdisconnected');
    },
    { times: 1 },
  );
}

interface PauseHolder {
  __walkPauses: { hold: () => void; release: () => void };
}

/**
 * Runs in the page before its scripts (addInitScript): while held, a timer of the queue's pause
 * (retryDelay: 2 s, 4 s, 8 s … up to 60 s) is kept instead of started, and started from the release
 * with its whole delay. So a step the path does inside the pause always comes first, on any machine.
 */
function holdPauses() {
  const start = window.setTimeout.bind(window);
  const stop = window.clearTimeout.bind(window);
  const kept = new Map<number, () => void>();
  let holding = false;
  let next = -1;
  const isPause = (ms: unknown) =>
    typeof ms === 'number' && ms >= 2000 && ms <= 60_000 && Number.isInteger(Math.log2(ms / 1000));
  (window as unknown as PauseHolder).__walkPauses = {
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const begin of kept.values()) begin();
      kept.clear();
    },
  };
  window.setTimeout = ((fn: TimerHandler, ms?: number, ...args: unknown[]) => {
    if (!holding || !isPause(ms)) return start(fn, ms, ...args);
    const id = next--;
    kept.set(id, () => start(fn, ms, ...args));
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined && kept.delete(id)) return;
    stop(id);
  }) as typeof window.clearTimeout;
}

/** One event of the path done in the browser (the walk's step, inside a held pause). */
async function doStep(w: WalkContext, event: EventObject & Record<string, unknown>) {
  const c = (w.data.context ?? { online: true, entries: [] }) as Ctx;
  w.data.i = Number(w.data.i) + 1;
  if (await setNetwork(w, event)) return;
  switch (event.type) {
    case 'xstate.done.actor.sendEntry': {
      // The server applies the oldest pending edit: its address and the partner's version before.
      const entry = nextPending(c.entries);
      const address = entry ? addresses(w).get(entry.id) : undefined;
      w.data.applying = address ? { address, before: (await serverPartner(w)).updatedAt } : null;
      break;
    }
    case 'xstate.error.actor.sendEntry':
      if (following(w)?.type === 'xstate.done.actor.linkBack') await dropNextProbe(w);
      if (event.error === outboxConflictError) {
        // Someone else changes the partner while the edit waits: the real server answers 409.
        await w.api.call('PATCH', '/admin/partners/update-record', {
          partnerId: w.world.partner.id,
          address: `${w.world.tag} changed through the API, ${Date.now()}`,
        });
        return w.edge.pass('sendEntry');
      }
      if (event.error === outboxValidationError) {
        // The server's own refusal (docs/product.md#validation: the address is required), not a
        // fixture: the held send goes on to the real server with an address its rule refuses.
        w.data.refused = { before: (await serverPartner(w)).updatedAt };
        await w.edge.passEdited('sendEntry', (body) => ({ ...body, address: '' }));
        (w.data.refused as { answer?: Answer }).answer = await w.edge.answerOf('sendEntry');
        return;
      }
      break;
    case 'outbox.changed':
      return queueEdit(w, c);
    case 'outbox.retry':
      return onQueued(w, c, Number(event.id), 'Retry');
    case 'outbox.discard':
      return onQueued(w, c, Number(event.id), 'Discard');
    case 'xstate.done.actor.choice':
      return conflictDialog(w)
        .getByRole('button', { name: event.output === droppedChoice ? 'Use theirs' : 'Keep mine' })
        .click();
    case 'xstate.done.actor.linkBack': {
      // The link came back (a probe answered after one did not) before the machine's own 4 s
      // pause ended: nothing was sent again before that answer.
      const sentThen = await Promise.race([
        w.data.linkBack as Promise<number>,
        new Promise<null>((r) => setTimeout(() => r(null), 20_000)),
      ]);
      expect(sentThen, 'a probe answering after one that did not').not.toBeNull();
      expect(sentThen, 'the queue waited for the link, not for its pause').toBe(w.data.sentAtDrop);
      return;
    }
    // The machine's own pause, and IndexedDB's reads and writes: they happen by themselves.
    case 'xstate.done.actor.retryTimer':
    case 'xstate.done.actor.loadEntries':
    case 'xstate.done.actor.markEntry':
    case 'xstate.done.actor.discardEntry':
      return;
  }
  if (await w.edge.settle(event)) return;
  throw new Error(`no way to do ${event.type} in the browser`);
}

export const walk: MachineWalk = {
  file: 'outbox',
  machine: outboxMachine,
  model: browserModel,
  // Its own partner record and no mail: beside the other lanes.
  lane: 2,
  effects: {
    sendEntry: { method: 'PATCH', path: /\/admin\/partners\/update-record$/ },
  },
  unreachable: {
    'outbox.loading xstate.error.actor.loadEntries #0':
      'IndexedDB failing to read: a page cannot make the browser fail a transaction',
    'outbox.failing xstate.error.actor.markEntry #0':
      'IndexedDB failing to write: a page cannot make the browser fail a transaction',
    'outbox.retrying xstate.error.actor.markEntry #0':
      'IndexedDB failing to write: a page cannot make the browser fail a transaction',
    'outbox.discarding xstate.error.actor.discardEntry #0':
      'IndexedDB failing to write: a page cannot make the browser fail a transaction',
    'outbox.conflict outbox.discard #0':
      "the 409 dialog is modal: the Pending changes list behind it cannot be used (the dialog's Use theirs drops the edit)",
  },
  begin: async (w, path) => {
    w.data.context = path.initial.context;
    w.data.steps = path.steps;
    w.data.i = 0;
    w.data.addresses = new Map<number, string>();
    w.data.applying = null;
    w.data.pauseHeld = false;
    countSends(w);
    // The queue's pause is the walk's to hold (see holdPauses). tsx compiles this file with
    // esbuild's keepNames, so the function's source calls `__name(…)`, which the page has not got:
    // define it first (as a string, which esbuild leaves alone), or holdPauses throws in the page.
    await w.page.addInitScript('globalThis.__name ??= (f) => f;');
    await w.page.addInitScript(holdPauses);
    // The partner's page and its Edit form once, so both screens open offline too (their code and data).
    await w.page.goto(partnerPage(w));
    await expect(w.page.getByRole('heading', { name: w.world.partner.organizationName })).toBeVisible();
    await w.page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(w.page.getByLabel('Address')).toHaveValue(/./);
    await w.page.goBack();
    await expect(w.page.getByRole('heading', { name: w.world.partner.organizationName })).toBeVisible();
  },
  step: async (w, event) => {
    // The pause held at the failed send (below) runs once the step done inside it is done.
    const held = Boolean(w.data.pauseHeld);
    w.data.pauseHeld = false;
    const steps = w.data.steps as FlowPath['steps'];
    const now = steps[Number(w.data.i)];
    const next = steps[Number(w.data.i) + 1]?.event.type;
    if (
      now?.state.matches('backoff') &&
      next !== undefined &&
      !['xstate.done.actor.retryTimer', 'xstate.done.actor.linkBack'].includes(next)
    ) {
      // The path acts inside the pause this step starts (Retry, Discard, a new edit, the network):
      // the page's pauses are held before the send fails, so the machine's 2 s or 4 s timer cannot
      // end the pause first however slow the machine running the browser is.
      await w.page.evaluate(() => (window as unknown as PauseHolder).__walkPauses.hold());
      w.data.pauseHeld = true;
    }
    await doStep(w, event);
    if (held) await w.page.evaluate(() => (window as unknown as PauseHolder).__walkPauses.release());
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const c = s.context as Ctx;
    w.data.context = c;
    const count = c.entries.length;
    const failed = c.entries.filter((e) => e.status === 'failed').length;
    // No edit is sent again once the server applied it (a double send), on any state.
    expect(sends(w).afterApplied, 'edits sent again after the server applied them').toEqual([]);
    switch (String(s.value)) {
      // Reading IndexedDB lasts milliseconds: what the step before wrote there is checked on the
      // screen (the queue's count), and an edit the server applied is checked on the server.
      case 'loading': {
        const applying = w.data.applying as { address: string; before: string } | null;
        w.data.applying = null;
        if (applying) {
          // The page has the server's answer first (a step lets the request go; it does not wait).
          expect((await w.edge.answerOf('sendEntry'))?.status, 'the server applies the edit').toBe(200);
          const partner = await serverPartner(w);
          expect(partner.address, 'the server has the queued edit').toBe(applying.address);
          expect(partner.updatedAt, 'a new version of the partner').not.toBe(applying.before);
          // Applied once: one answered send of that edit, and nothing sent again after it.
          await expect.poll(() => sends(w).applied.get(applying.address) ?? 0).toBe(1);
        }
        if (count === 0) return expect(bar(w)).toHaveCount(0);
        return expect(bar(w).getByTestId('pending-count')).toHaveText(String(count));
      }
      case 'failing': {
        const refused = w.data.refused as { before: string; answer?: Answer } | undefined;
        w.data.refused = undefined;
        if (refused) {
          expect(refused.answer?.status, 'the server refuses the edit').toBe(400);
          expect(refused.answer?.errors.map((e) => e.fieldName)).toEqual(['address']);
          // Bad input changes nothing: the partner's version is the one before the send.
          expect((await serverPartner(w)).updatedAt, 'the refused edit changed nothing').toBe(refused.before);
        }
        return expect(bar(w)).toContainText('refused by the server');
      }
      case 'retrying':
        if (failed === 1) await expect(bar(w)).not.toContainText('refused by the server');
        return expect(bar(w).getByTestId('pending-count')).toHaveText(String(count));
      case 'discarding':
        await expect(conflictDialog(w)).toHaveCount(0);
        if (count === 1) return expect(bar(w)).toHaveCount(0);
        return expect(bar(w).getByTestId('pending-count')).toHaveText(String(count - 1));
      case 'idle':
        await expect(conflictDialog(w)).toHaveCount(0);
        if (count === 0) await expect(bar(w)).toHaveCount(0);
        else {
          await expect(bar(w).getByTestId('pending-count')).toHaveText(String(count));
          await expect(bar(w)).toContainText(
            failed ? `${failed} refused by the server` : c.online ? 'sending' : 'until you are back online',
          );
        }
        // Waiting: nothing is being sent.
        return expect.poll(() => w.edge.holding('sendEntry')).toBe(0);
      case 'sending':
        await expect(bar(w).getByTestId('pending-count')).toHaveText(String(count));
        return expect.poll(() => w.edge.holding('sendEntry'), { message: 'the edit is sent' }).toBe(1);
      case 'backoff':
        await expect(conflictDialog(w)).toHaveCount(0);
        return expect(bar(w).getByTestId('pending-count')).toHaveText(String(count));
      case 'conflict':
        await expect(conflictDialog(w)).toContainText(`Edit partner ${w.world.partner.organizationName}`);
        return expect(conflictDialog(w).getByRole('button', { name: 'Keep mine' })).toBeEnabled();
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
  // After every step too: an edit sent again after the server applied it (a late second send).
  after: async (w) => {
    expect(sends(w).afterApplied, 'edits sent again after the server applied them').toEqual([]);
  },
};
