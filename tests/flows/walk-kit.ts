import {
  type BrowserContext,
  expect as baseExpect,
  type Locator,
  type Page,
  type Route,
} from '@playwright/test';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { FlowModel, FlowPath } from '../model/flow-engine';
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

/** Playwright's expect with room for a busy machine (the walk's checks wait up to 10 s). */
export const expect = baseExpect.configure({ timeout: 10_000 });

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

  async install(page: Page) {
    page.on('request', (r) => {
      if (this.effectOf(r.method(), r.url())) this.sent += 1;
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
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    const [route, ...rest] = this.held.get(effect)!;
    this.held.set(effect, rest);
    return route!;
  }

  /** How many requests of the effect are held now. */
  holding(effect: string): number {
    return this.held.get(effect)?.length ?? 0;
  }

  /** The browser is offline (setNetwork): a request let through now is answered from Node. */
  offline = false;

  async pass(effect: string) {
    const route = await this.take(effect);
    // A request sent before the network dropped, whose answer the path says arrives: the real
    // server answers it (fetched from Node, as the browser's own network is down) and the page gets
    // that answer. A held request continued while offline would fail instead.
    if (this.offline) return route.fulfill({ response: await route.fetch() });
    await route.continue();
  }

  async fail(effect: string, error: unknown) {
    const route = await this.take(effect);
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

/** A path's start reads its input. */
export const inputOf = <T>(path: FlowPath) => path.start.input as T;
