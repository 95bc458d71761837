import { expect, type Page } from '@playwright/test';

/**
 * The layout check of issue 32 (decision 067), run in the page on what is on screen now:
 * - the page scrolls sideways (the root is wider than the window);
 * - an element is cut by a box that clips it (overflow hidden, clip, auto or scroll), unless the box
 *   scrolls sideways and says so (`data-scroll-hint`, the tables' 'Scroll sideways' hint);
 * - text overflows its own box (wider or taller than the box, the box not clipping it);
 * - something else is painted over an open dialog: a hit test (document.elementFromPoint) at the
 *   centre of every text, field and button of the topmost open dialog must land in that dialog,
 *   with the page's `inert` and `pointer-events: none` lifted for the test (they hide what is
 *   painted from hit testing, not from the eye).
 * Each problem is one line naming the element; an empty list is a pass.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    const viewWidth = root.clientWidth;
    const viewHeight = root.clientHeight;
    const describe = (el: Element) => {
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
      return `<${el.tagName.toLowerCase()}> "${text.slice(0, 40)}"`;
    };
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return false;
      const cs = getComputedStyle(el);
      return cs.visibility !== 'hidden' && Number(cs.opacity) > 0;
    };
    const clips = (v: string) => v !== 'visible';
    const scrolls = (v: string) => v === 'auto' || v === 'scroll';

    if (root.scrollWidth > viewWidth + 1) {
      problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in a ${viewWidth} px window`);
    }

    const controls = 'button, a[href], input, select, textarea, [role="tab"], [role="button"]';
    const hasOwnText = (el: Element) =>
      Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
    /** Inside a box of 1 px or less that clips (the visually hidden text for screen readers). */
    const visuallyHidden = (el: Element) => {
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        const bs = getComputedStyle(box);
        if (bs.overflowX === 'visible' && bs.overflowY === 'visible') continue;
        const b = box.getBoundingClientRect();
        if (b.width <= 1 || b.height <= 1) return true;
      }
      return false;
    };
    const candidates = Array.from(document.body.querySelectorAll<HTMLElement>('*')).filter(
      (el) =>
        el instanceof HTMLElement &&
        (el.matches(controls) || hasOwnText(el)) &&
        shown(el) &&
        !visuallyHidden(el),
    );

    for (const el of candidates) {
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      // Text wider (or taller) than its own box, spilling out of it or cut by it.
      if (hasOwnText(el) && cs.display !== 'inline' && !el.matches('input, select, textarea')) {
        const wide = el.scrollWidth > el.clientWidth + 1;
        const tall = el.scrollHeight > el.clientHeight + 2;
        if (wide && !scrolls(cs.overflowX)) {
          problems.push(`${describe(el)}: its text ${clips(cs.overflowX) ? 'is cut' : 'overflows its box'}`);
        } else if (tall && !scrolls(cs.overflowY) && (clips(cs.overflowY) || cs.height !== 'auto')) {
          if (!clips(cs.overflowY) || el.scrollHeight > el.clientHeight + 4) {
            problems.push(`${describe(el)}: its text is taller than its box`);
          }
        }
      }
      // Cut by the first box around it that clips.
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        const bs = getComputedStyle(box);
        if (!clips(bs.overflowX) && !clips(bs.overflowY)) continue;
        if (cs.position === 'fixed') break;
        const b = box.getBoundingClientRect();
        const left = b.left + box.clientLeft;
        const right = left + box.clientWidth;
        const top = b.top + box.clientTop;
        const bottom = top + box.clientHeight;
        const cutX = clips(bs.overflowX) && (r.left < left - 1 || r.right > right + 1);
        const cutY =
          clips(bs.overflowY) && !scrolls(bs.overflowY) && (r.top < top - 1 || r.bottom > bottom + 1);
        if (cutX && !(scrolls(bs.overflowX) && box.hasAttribute('data-scroll-hint'))) {
          problems.push(`${describe(el)} is cut by ${describe(box)} at its side, without a scroll hint`);
        } else if (cutY) {
          problems.push(`${describe(el)} is cut by ${describe(box)} at its top or bottom`);
        }
        break;
      }
    }

    // The topmost open dialog: what is drawn at each of its parts must be that dialog.
    const dialogs = Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"]')).filter(
      shown,
    );
    const dialog = dialogs.at(-1);
    // A modal dialog gives the body `pointer-events: none` (and may make the rest of the page
    // `inert`), and hit testing skips both: document.elementFromPoint would land in the dialog
    // whatever is painted over it (issue 32 item 1: taps reached the dialog while the tables'
    // sticky cells were drawn above it). For the hit test only, the page takes part again, so the
    // test reads paint order.
    if (dialog) {
      const inert = Array.from(document.querySelectorAll('[inert]'));
      // Through the CSSOM: the console's CSP refuses a <style> element added by a script.
      const body = document.body.style;
      const was = [body.getPropertyValue('pointer-events'), body.getPropertyPriority('pointer-events')];
      for (const el of inert) el.removeAttribute('inert');
      body.setProperty('pointer-events', 'auto', 'important');
      try {
        const d = dialog.getBoundingClientRect();
        const inDialog = Array.from(dialog.querySelectorAll<HTMLElement>('*')).filter(
          (el) => (el.matches(controls) || hasOwnText(el)) && shown(el),
        );
        for (const el of inDialog) {
          const r = el.getBoundingClientRect();
          const x = (Math.max(r.left, d.left, 0) + Math.min(r.right, d.right, viewWidth)) / 2;
          const y = (Math.max(r.top, d.top, 0) + Math.min(r.bottom, d.bottom, viewHeight)) / 2;
          // Parts scrolled out of the dialog's view are not drawn; nothing to hit.
          if (x < d.left || x > d.right || y < d.top || y > d.bottom) continue;
          if (x < 0 || y < 0 || x > viewWidth || y > viewHeight) continue;
          if (y < r.top || y > r.bottom || x < r.left || x > r.right) continue;
          const hit = document.elementFromPoint(x, y);
          // Toasts answer what was done in the dialog: they are above it by design (decision 067).
          if (hit && (dialog.contains(hit) || hit.closest('[data-part="group"][data-scope="toast"]')))
            continue;
          // Only what holds the dialog there (its positioner at the edge of a part scrolled almost
          // out of view; the body, html): nothing of the page is drawn over it.
          if (hit?.contains(dialog)) continue;
          problems.push(
            `${hit ? describe(hit) : 'nothing'} is painted over ${describe(el)} of an open dialog`,
          );
        }
      } finally {
        body.setProperty('pointer-events', was[0]!, was[1]);
        for (const el of inert) el.setAttribute('inert', '');
      }
    }
    return [...new Set(problems)];
  });
}

/**
 * What is painted topmost at (x, y) lies in the topmost open dialog: the same hit test as
 * layoutProblems, the page's `inert` and `pointer-events: none` lifted for it.
 */
export async function dialogOnTopAt(page: Page, x: number, y: number): Promise<boolean> {
  return page.evaluate(
    ([px, py]) => {
      const dialog = Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"]')).at(-1);
      const inert = Array.from(document.querySelectorAll('[inert]'));
      // Through the CSSOM: the console's CSP refuses a <style> element added by a script.
      const body = document.body.style;
      const was = [body.getPropertyValue('pointer-events'), body.getPropertyPriority('pointer-events')];
      for (const el of inert) el.removeAttribute('inert');
      body.setProperty('pointer-events', 'auto', 'important');
      try {
        const hit = document.elementFromPoint(px as number, py as number);
        return !!dialog && !!hit && dialog.contains(hit);
      } finally {
        body.setProperty('pointer-events', was[0]!, was[1]);
        for (const el of inert) el.setAttribute('inert', '');
      }
    },
    [x, y],
  );
}

/** Waits until the screen is drawn: no busy table, no loading spinner, no progress bar, fonts in. */
export async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 20_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}
