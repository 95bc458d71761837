import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Route } from '@playwright/test';

/** axe-core's browser bundle, read once. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Given to AxeBuilder once axe is in the document, so it does not evaluate the 650 kB bundle again. */
const ALREADY_INJECTED = 'void 0; /* axe-core is already in this document */';

/** WCAG 2.0, 2.1 and 2.2 A and AA (issue 9): the rules axe runs on every screen. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const IMPACTS = ['minor', 'moderate', 'serious', 'critical'] as const;
type Impact = (typeof IMPACTS)[number];

export interface AxeRow {
  screen: string;
  state: string;
  /** Violated rules by impact (each rule once, however many elements break it). */
  counts: Record<Impact, number>;
  /** Elements in violation, all impacts. */
  nodes: number;
  ms: number;
  /** The serious and critical violations, spelled out: rule, help, the first elements. */
  serious: string[];
}

/**
 * Every axe run of a spec: a row per screen and state, the serious and critical findings spelled
 * out (rule, help, the first elements) so a failure says what to fix, and the table the spec prints.
 */
export class AxeLedger {
  readonly rows: AxeRow[] = [];

  /**
   * Runs axe on the whole page as it is now. Legacy mode runs axe in the page itself; the default
   * mode opens an extra blank page per run to merge frame results, and this app has no frames.
   */
  async audit(page: Page, screen: string, state: string): Promise<AxeRow> {
    const started = Date.now();
    // Once per document: AxeBuilder would evaluate the bundle twice on every run (legacy mode).
    const present = await page.evaluate(
      () => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function',
    );
    if (!present) await page.evaluate(AXE_SOURCE);
    const result = await new AxeBuilder({ page, axeSource: ALREADY_INJECTED })
      .withTags(WCAG_TAGS)
      .setLegacyMode()
      .analyze();
    const row: AxeRow = {
      screen,
      state,
      counts: { minor: 0, moderate: 0, serious: 0, critical: 0 },
      nodes: 0,
      ms: Date.now() - started,
      serious: [],
    };
    for (const violation of result.violations) {
      const impact: Impact = (violation.impact as Impact | null | undefined) ?? 'minor';
      row.counts[impact] += 1;
      row.nodes += violation.nodes.length;
      const where = violation.nodes
        .slice(0, 3)
        .map(
          (n) =>
            `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n')[1]?.trim()})` : ''}`,
        )
        .join('; ');
      const line = `${screen} [${state}] ${impact} ${violation.id}: ${violation.help} (${violation.nodes.length} elements: ${where})`;
      if (impact === 'serious' || impact === 'critical') row.serious.push(line);
      else console.log(`axe ${line}`);
    }
    this.rows.push(row);
    return row;
  }

  /** Serious and critical findings of the rows audited since `from` (a row index). */
  seriousSince(from: number): string[] {
    return this.rows.slice(from).flatMap((r) => r.serious);
  }

  table(): string {
    const head = ['screen', 'state', 'critical', 'serious', 'moderate', 'minor', 'elements', 'ms'];
    const body = this.rows.map((r) => [
      r.screen,
      r.state,
      String(r.counts.critical),
      String(r.counts.serious),
      String(r.counts.moderate),
      String(r.counts.minor),
      String(r.nodes),
      String(r.ms),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
    return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)].join('\n');
  }

  totals() {
    const sum = (impact: Impact) => this.rows.reduce((n, r) => n + r.counts[impact], 0);
    return {
      runs: this.rows.length,
      screens: new Set(this.rows.map((r) => r.screen)).size,
      critical: sum('critical'),
      serious: sum('serious'),
      moderate: sum('moderate'),
      minor: sum('minor'),
      ms: this.rows.reduce((n, r) => n + r.ms, 0),
    };
  }
}

/**
 * Holds the page's API calls that `match` selects at the browser's edge, so a screen's loading
 * state stays on screen while axe runs; `release()` lets each one go on to the real server.
 */
export async function holdApi(page: Page, match: (url: URL) => boolean) {
  const held: Route[] = [];
  let releasing = false;
  const handler = (route: Route) => {
    if (releasing) return route.continue();
    held.push(route);
  };
  const matcher = (url: URL) => url.pathname.startsWith('/api/v1/') && match(url);
  await page.route(matcher, handler);
  return {
    count: () => held.length,
    release: async () => {
      releasing = true;
      await page.unroute(matcher, handler);
      await Promise.all(held.splice(0).map((route) => route.continue().catch(() => undefined)));
    },
  };
}

/** The computed focus indicator of the focused element: an outline or a box-shadow that shows. */
export function focusIndicator(page: Page) {
  return page.evaluate(() => {
    let el = document.activeElement as HTMLElement | null;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const outline =
      style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0 ? style.outlineWidth : null;
    const shadow = style.boxShadow && style.boxShadow !== 'none' ? style.boxShadow : null;
    const name =
      el.getAttribute('aria-label') ||
      (el as HTMLInputElement).labels?.[0]?.textContent ||
      el.textContent?.trim().slice(0, 40) ||
      el.getAttribute('placeholder') ||
      '';
    return {
      element: `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} "${name}"`,
      visible: Boolean(outline || shadow),
      outline,
      shadow,
    };
  });
}

/**
 * Empties the SPA's saved query results (IndexedDB, in the user's Storage Bucket where there is
 * one), so the next load of a screen fetches again and shows its loading state, as on a first visit.
 */
export function forgetSavedQueries(page: Page, bucket: string) {
  return page.evaluate(async (bucket) => {
    const buckets = (
      navigator as { storageBuckets?: { open(name: string): Promise<{ indexedDB: IDBFactory }> } }
    ).storageBuckets;
    const factory = buckets ? (await buckets.open(bucket)).indexedDB : indexedDB;
    await new Promise<void>((resolve, reject) => {
      const open = factory.open('reward-club-admin');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('queries')) {
          db.close();
          resolve();
          return;
        }
        const tx = db.transaction('queries', 'readwrite');
        tx.objectStore('queries').clear();
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    });
  }, bucket);
}
