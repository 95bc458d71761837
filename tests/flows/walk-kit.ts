import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type BrowserContext,
  expect as baseExpect,
  type Locator,
  type Page,
  type Route,
} from '@playwright/test';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { FlowModel, FlowPath, FlowStep } from '../model/flow-engine';
import type { MailClient } from './mail-client';
import type { FlowsApi, World } from './world';

/**
 * What a machine's walk file (`tests/flows/walks/<name>.walk.ts`) provides: the machine's model
 * (its generated paths, tests/model), how each event of a path is done in the real SPA, and what the
 * screen must show in each state. The runner (tests/flows/walk.ts) drives every path in Chromium.
 */
export interface MachineWalk {
  /** The machine file this walk drives (`otp` for src/machines/otp.machine.ts). */
  file: string;
  machine: AnyStateMachine;
  model: FlowModel;
  /** The requests of the machine's effects, held at the browser's edge until the path settles them. */
  effects: EffectRoutes;
  /**
   * Walks in different lanes run side by side (default lane 0); a lane must use its own customer
   * and account, so one lane's mail and rate limits never meet another's.
   */
  lane?: number;
  /** Who the browser is signed in as (default: the admin, FLOWS_ADMIN_EMAIL). */
  signInAs?: (world: World) => { email: string; password: string };
  /** Transition keys (tests/model/flow-engine transitionKey) no UI action can take, with the reason. */
  unreachable?: Record<string, string>;
  /**
   * What the screen offers in a state: events it cannot send there (a button that is not shown, a
   * customer not listed) are left out of the paths generated for the browser, so the shortest walk
   * to a transition is one a user can make.
   */
  offers?: (state: AnyMachineSnapshot, event: EventObject) => boolean;
  /** Context facts `offers` reads, added to the model's abstraction (states differing in them differ). */
  abstract?: (state: AnyMachineSnapshot) => Record<string, unknown>;
  /** Further goals the walk's paths must reach (tests/model/flow-engine PathChoice.goals). */
  goals?: (step: FlowStep) => string[];
  /** Why a generated path cannot be walked in the browser (a step no screen offers), or null. */
  unwalkable?: (path: FlowPath) => string | null;
  /** Makes the data a path needs (through the API) and opens the screen where it starts. */
  begin: (w: WalkContext, path: FlowPath) => Promise<void>;
  /** Does one event of the path in the browser (a click, typing, the network, a held answer). */
  step: (w: WalkContext, event: EventObject & Record<string, unknown>) => Promise<void>;
  /** Throws unless the screen shows the machine's state after the step. */
  check: (w: WalkContext, state: AnyMachineSnapshot) => Promise<void>;
  /** A further check after each step (`sentBefore`: held requests started before the step). */
  after?: (w: WalkContext, state: AnyMachineSnapshot, sentBefore: number) => Promise<void>;
}

export interface WalkContext {
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  api: FlowsApi;
  mail: MailClient;
  world: World;
  edge: Edge;
  /** Per-path scratch (a reward's code, the mailed OTP, mail seen before a step ...). */
  data: Record<string, unknown>;
}

/**
 * The assertions a state's check makes: each `expect(...)`, `expect.poll(...)` and `expect.soft(...)`
 * of this kit, and each `observed(...)` (a page or API read the check compares itself), counted in
 * the check that makes it (lanes run side by side: the count follows the check's async calls). The
 * runner fails the path when a check asserted nothing (a check that cannot fail is no check).
 */
const checkScope = new AsyncLocalStorage<{ n: number }>();

export async function countAssertions(fn: () => Promise<void>): Promise<number> {
  const counter = { n: 0 };
  await checkScope.run(counter, fn);
  return counter.n;
}

/** A state value as the report names it: 'signedIn.refreshing.waitingForLock'. */
export function stateName(value: unknown): string {
  if (typeof value === 'string') return value;
  const [key, inner] = Object.entries(value as Record<string, unknown>)[0] ?? ['?', null];
  return inner === null || inner === undefined ? key : `${key}.${stateName(inner)}`;
}

/** A read the check compared by its own means (counts as an assertion of the check). */
export function observed() {
  const counter = checkScope.getStore();
  if (counter) counter.n += 1;
}

/**
 * How long a step waits for what it looks for (FLOWS_STEP_TIMEOUT_MS, 20 s by default): a shared
 * machine at load 10 and more takes over 10 s to show a list the server reads while other lanes write.
 */
export const STEP_TIMEOUT = Number(process.env.FLOWS_STEP_TIMEOUT_MS) || 20_000;

const configured = baseExpect.configure({ timeout: STEP_TIMEOUT });
const counted = <F extends (...args: never[]) => unknown>(f: F): F =>
  ((...args: Parameters<F>) => {
    observed();
    return f(...args);
  }) as F;

/** Playwright's expect with room for a busy machine (the walk's checks wait up to 10 s), counted. */
export const expect: typeof configured = new Proxy(configured, {
  apply: (target, self, args) => {
    observed();
    return Reflect.apply(target, self, args);
  },
  get: (target, prop, receiver) => {
    const value = Reflect.get(target, prop, receiver);
    if ((prop === 'poll' || prop === 'soft') && typeof value === 'function')
      return counted(value.bind(target));
    return value;
  },
});

/** An answer the page got: its status, the envelope's message and data. */
export interface Answer {
  status: number;
  message: string;
  data?: unknown;
  /** The envelope's field errors (docs/product.md#envelope). */
  errors: Array<{ fieldName: string; message: string }>;
}

/** One effect's request: a method and a path pattern. */
export type EffectRoutes = Record<string, { method: string; path: RegExp }>;

export interface ErrorFixture {
  status: number;
  message: string;
  errors?: { fieldName: string; message: string }[];
}

/**
 * The browser's edge: the requests of the effects a path decides are held until the path says how
 * they end. 'done' lets the held request through to the real server; a Network Error (status 0)
 * aborts it; any other error is answered with the model's fixture (an answer the real server gives
 * only after many steps, like a lock-out, or never on demand, like a refused image).
 */
export class Edge {
  private held = new Map<string, Route[]>();
  private passing = false;
  /** Requests of held effects the page started (whether or not they reached the server). */
  sent = 0;

  constructor(private readonly routes: EffectRoutes) {}

  private effectOf(method: string, url: string): string | null {
    const path = new URL(url).pathname;
    for (const [effect, r] of Object.entries(this.routes))
      if (r.method === method && r.path.test(path)) return effect;
    return null;
  }

  /**
   * The last answer the page got for each effect (status and the envelope's message), the real
   * server's or a fixture's: a check of a state the server put the page in reads what it said.
   */
  answers = new Map<string, Answer>();
  private reading: Promise<unknown>[] = [];

  async install(page: Page) {
    page.on('request', (r) => {
      if (this.effectOf(r.method(), r.url())) this.sent += 1;
    });
    page.on('response', (r) => {
      const effect = this.effectOf(r.request().method(), r.url());
      if (!effect) return;
      this.reading.push(
        r
          .json()
          .catch(() => ({}))
          .then((body: { message?: string; data?: unknown; errors?: Answer['errors'] }) =>
            this.answers.set(effect, {
              status: r.status(),
              message: body?.message ?? '',
              data: body?.data,
              errors: Array.isArray(body?.errors) ? body.errors : [],
            }),
          ),
      );
    });
    await page.route(
      (url) => Object.values(this.routes).some((r) => r.path.test(url.pathname)),
      (route) => {
        const effect = this.effectOf(route.request().method(), route.request().url());
        if (!effect || this.passing) return route.continue();
        this.held.set(effect, [...(this.held.get(effect) ?? []), route]);
      },
    );
  }

  /** While on, nothing is held (a walk's way to a path's start, before the path's own steps). */
  async passAll(on: boolean) {
    this.passing = on;
    if (!on) return;
    for (const routes of this.held.values()) for (const r of routes) await r.continue().catch(() => {});
    this.held.clear();
  }

  private async take(effect: string): Promise<Route> {
    await expect
      .poll(() => this.held.get(effect)?.length ?? 0, {
        message: `a held ${effect} request`,
        timeout: STEP_TIMEOUT,
      })
      .toBeGreaterThan(0);
    const [route, ...rest] = this.held.get(effect)!;
    this.held.set(effect, rest);
    return route!;
  }

  /** The last answer of the effect the page got (waits until it is read). */
  async answerOf(effect: string): Promise<Answer | undefined> {
    await expect.poll(() => this.answers.has(effect), { message: `an answer to ${effect}` }).toBe(true);
    await Promise.all(this.reading);
    return this.answers.get(effect);
  }

  /**
   * The requests sent on to the server walked with fields changed at the edge during the current
   * step (the answer is the server's own; the report lists them beside the fixtures).
   */
  edited: string[] = [];

  /** Lets a held request through to the real server with its JSON body changed by `edit`. */
  async passEdited(effect: string, edit: (body: Record<string, unknown>) => Record<string, unknown>) {
    const route = await this.take(effect);
    const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
    this.answers.delete(effect);
    const changed = edit({ ...body });
    const fields = [...new Set([...Object.keys(body), ...Object.keys(changed)])].filter(
      (k) => JSON.stringify(body[k]) !== JSON.stringify(changed[k]),
    );
    this.edited.push(`${effect}: ${fields.join(', ') || 'nothing'} changed`);
    const postData = JSON.stringify(changed);
    // Offline (see `pass`): the real server's answer, fetched from Node.
    if (this.offline) return route.fulfill({ response: await route.fetch({ postData }) });
    await route.continue({ postData });
  }

  /** How many requests of the effect are held now. */
  holding(effect: string): number {
    return this.held.get(effect)?.length ?? 0;
  }

  /** The browser is offline (setNetwork): a request let through now is answered from Node. */
  offline = false;

  async pass(effect: string) {
    const route = await this.take(effect);
    this.answers.delete(effect);
    // A request sent before the network dropped, whose answer the path says arrives: the real
    // server answers it (fetched from Node, as the browser's own network is down) and the page gets
    // that answer. A held request continued while offline would fail instead.
    if (this.offline) return route.fulfill({ response: await route.fetch() });
    await route.continue();
  }

  /** The answers given at the edge from the model's fixtures during the current step. */
  fixtures: string[] = [];

  async fail(effect: string, error: unknown) {
    const route = await this.take(effect);
    const e0 = error as ErrorFixture | undefined;
    this.fixtures.push(
      `${effect}: ${!e0 || e0.status === 0 ? 'no answer (Network Error)' : `${e0.status} ${e0.message}`}`,
    );
    const e = error as ErrorFixture;
    if (!e || e.status === 0) return route.abort('internetdisconnected');
    return route.fulfill({
      status: e.status,
      contentType: 'application/json',
      headers: e.status === 429 ? { 'retry-after': '60' } : {},
      body: JSON.stringify({ success: false, data: null, message: e.message, errors: e.errors ?? [] }),
    });
  }

  /** Answers a held request with a success envelope of the server's shape, without the server. */
  async answer(effect: string, data: unknown, message = 'OK') {
    const route = await this.take(effect);
    this.fixtures.push(`${effect}: answered ${message}`);
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ success: true, data, message, errors: [] }),
    });
  }

  /** 'xstate.done.actor.x' passes x, 'xstate.error.actor.x' fails it; false for other events. */
  async settle(event: EventObject & Record<string, unknown>): Promise<boolean> {
    const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type)?.[1];
    if (done && done in this.routes) {
      await this.pass(done);
      return true;
    }
    const failed = /^xstate\.error\.actor\.(.+)$/.exec(event.type)?.[1];
    if (failed && failed in this.routes) {
      await this.fail(failed, event.error);
      return true;
    }
    return false;
  }

  async release() {
    for (const routes of this.held.values()) for (const r of routes) await r.abort().catch(() => {});
    this.held.clear();
  }
}

export const dialogOf = (page: Page) => page.getByRole('dialog');

/** The machine's error must be on screen; none when it has none. */
export async function expectError(scope: Locator, error: string | null) {
  if (error) await expect(scope.getByRole('alert').filter({ hasText: error })).toBeVisible();
  else await expect(scope.getByRole('alert')).toHaveCount(0);
}

export async function setNetwork(w: WalkContext, event: EventObject): Promise<boolean> {
  if (event.type !== 'network.offline' && event.type !== 'network.online') return false;
  w.edge.offline = event.type === 'network.offline';
  await w.context.setOffline(w.edge.offline);
  return true;
}

/** Pastes text into an element as a user's clipboard would. */
export async function paste(target: Locator, text: string) {
  await target.evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData('text', value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

export const OTP_MAIL = /redemption code is: (\d{6})/;

/** Types a six-digit code into the one-time-code boxes and submits. */
export async function typeCode(page: Page, code: string) {
  const group = page.getByRole('group', { name: 'One-time code' });
  await group.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(code);
  await page.locator('form').filter({ has: group }).getByRole('button', { name: 'Submit' }).click();
}

/**
 * Runs `fn` in a plain page of the origin (the health JSON: no SPA, no session machine of its own),
 * e.g. to write the origin's storage before a path's first page of the SPA loads.
 */
export async function onOrigin<R>(context: BrowserContext, fn: (page: Page) => Promise<R>): Promise<R> {
  const page = await context.newPage();
  try {
    await page.goto('/api/v1/health');
    return await fn(page);
  } finally {
    await page.close();
  }
}

/**
 * A browser context is reused by a machine's paths (the SPA's code and its service worker's precache
 * are fetched and compiled once, not per path); before each path every page is closed and the
 * origin's storage emptied (localStorage, IndexedDB, Storage Buckets, caches but the service
 * worker's own, cookies), then
 * the path's session is stored: each path starts as a fresh browser signed in with its own tokens.
 */
interface StorageBucketManager {
  keys(): Promise<string[]>;
  delete(name: string): Promise<void>;
}

export async function freshStart(context: BrowserContext, storageKey: string, session: string) {
  for (const open of context.pages()) await open.close().catch(() => {});
  await context.setOffline(false);
  await context.clearCookies();
  await onOrigin(context, (page) =>
    page.evaluate(
      async ([key, value]) => {
        localStorage.clear();
        sessionStorage.clear();
        for (const db of await indexedDB.databases()) {
          const name = db.name;
          if (!name || name.startsWith('workbox')) continue;
          await new Promise<void>((resolve, reject) => {
            const request = indexedDB.deleteDatabase(name);
            request.onsuccess = () => resolve();
            request.onerror = () => reject(request.error);
            request.onblocked = () => reject(new Error(`IndexedDB ${name} is still open`));
          });
        }
        // The app's database lives in a Storage Bucket (decision 009): the buckets go with their data.
        const buckets = (navigator as unknown as { storageBuckets?: StorageBucketManager }).storageBuckets;
        for (const name of (await buckets?.keys()) ?? []) await buckets?.delete(name);
        for (const name of await caches.keys()) if (!name.startsWith('workbox')) await caches.delete(name);
        localStorage.setItem(key, value);
      },
      [storageKey, session] as const,
    ),
  );
}

/** What the real server said where the model's fixture has its own words (fixture → server), per path. */
export function serverSaid(w: WalkContext): Map<string, string> {
  if (!(w.data.said instanceof Map)) w.data.said = new Map<string, string>();
  return w.data.said as Map<string, string>;
}

/** The error the screen shows for the model's: the server's own words where it answered for real. */
export const shownError = (w: WalkContext, message: string | null) =>
  message === null ? null : (serverSaid(w).get(message) ?? message);

/** A path's start reads its input. */
export const inputOf = <T>(path: FlowPath) => path.start.input as T;
