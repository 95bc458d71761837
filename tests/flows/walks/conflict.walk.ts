import type { AnyMachineSnapshot } from 'xstate';
import { TEXTS } from '../../../src/lib/texts';
import type { ConflictContext } from '../../../src/machines/conflict.machine';
import { conflictMachine } from '../../../src/machines/conflict.machine';
import { changedAgainError, conflictModel, keepRefusedError } from '../../model/conflict-model';
import { type Answer, expect, type MachineWalk, type WalkContext } from '../walk-kit';

/**
 * The 409 choice walked in the browser through an online form's save: the run's partner opened in
 * Edit Partner, its address changed through the API meanwhile, Submit: the real server answers 409
 * and the dialog opens. Keep mine's send is held at the browser's edge until the path says how it
 * ends: the real server applies it, the partner is changed once more through the API first (the
 * real 409 again), or the model's 400. The queue's use of the same machine is walked by
 * outbox.walk.ts (its dialog cannot be closed: that start is not walked here).
 */

const partnerPage = (w: WalkContext) => `/dashboard/partners/${w.world.partner.id}`;
const dialog = (w: WalkContext) => w.page.getByRole('dialog', { name: TEXTS.conflict.title });

/** Someone else changes the partner's address through the API; returns the address now on the server. */
async function changeThroughApi(w: WalkContext): Promise<string> {
  const address = `${w.world.tag} changed through the API, ${Date.now()}`;
  await w.api.call('PATCH', '/admin/partners/update-record', { partnerId: w.world.partner.id, address });
  return address;
}

/** The partner as the server has it now, read through the API. */
const serverAddress = async (w: WalkContext) =>
  (await w.api.call<{ address: string }>('GET', `/admin/partners/${w.world.partner.id}`)).address;

export const walk: MachineWalk = {
  file: 'conflict',
  machine: conflictMachine,
  model: conflictModel,
  effects: {
    keepMine: { method: 'PATCH', path: /\/admin\/partners\/update-record$/ },
  },
  // The outbox walk edits the same partner: the same lane, one path at a time.
  lane: 2,
  unwalkable: (path) =>
    (path.start.input as { closable?: boolean }).closable === false
      ? "the queue's dialog: walked by the outbox walk (outbox.walk.ts)"
      : null,
  begin: async (w) => {
    const page = w.page;
    await page.goto(partnerPage(w));
    await expect(page.getByRole('heading', { name: w.world.partner.organizationName })).toBeVisible();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Edit Partner' })).toBeVisible();
    await expect(page.getByLabel('Address')).toHaveValue(/./);
    w.data.mine = `${w.world.tag} my edit, ${Date.now()}`;
    await page.getByLabel('Address').fill(String(w.data.mine));
    w.data.theirs = await changeThroughApi(w);
    await page.getByRole('button', { name: 'Submit' }).click();
    // The form's own save goes to the real server, which answers 409.
    await w.edge.pass('keepMine');
    await expect(dialog(w)).toContainText(String(w.data.theirs));
  },
  step: async (w, event) => {
    switch (event.type) {
      case 'conflict.keepMine':
        return dialog(w).getByRole('button', { name: TEXTS.conflict.keepMine }).click();
      case 'conflict.useTheirs':
        return dialog(w).getByRole('button', { name: TEXTS.conflict.useTheirs }).click();
      case 'conflict.close':
        return dialog(w).getByRole('button', { name: 'Close' }).click();
      case 'xstate.error.actor.keepMine':
        if (event.error === changedAgainError) {
          // Changed once more before Keep mine arrives: the real server answers 409 again.
          w.data.theirs = await changeThroughApi(w);
          return w.edge.pass('keepMine');
        }
        if (event.error === keepRefusedError) {
          // The server's own refusal: Keep mine goes on to the real server with an address its rule
          // refuses (required), so the 400 and its words are the server's.
          await w.edge.passEdited('keepMine', (body) => ({ ...body, address: '' }));
          w.data.refusal = await w.edge.answerOf('keepMine');
          return;
        }
        break;
    }
    if (await w.edge.settle(event)) return;
    throw new Error(`no way to do ${event.type} in the browser`);
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const c = s.context as ConflictContext;
    const page = w.page;
    switch (String(s.value)) {
      case 'choosing':
        // The server's record as it is now, beside mine.
        await expect(dialog(w)).toContainText(String(w.data.theirs));
        await expect(dialog(w)).toContainText(String(w.data.mine));
        return expect(dialog(w).getByRole('button', { name: TEXTS.conflict.keepMine })).toBeEnabled();
      case 'keeping':
        await expect(dialog(w).getByRole('button', { name: TEXTS.conflict.useTheirs })).toBeDisabled();
        return expect.poll(() => w.edge.holding('keepMine'), { message: 'Keep mine is sent' }).toBe(1);
      case 'kept':
        // docs/product.md#states: a partner edit returns to the list with its message.
        await expect(dialog(w)).toHaveCount(0);
        return expect(page).toHaveURL(/\/dashboard\/partners$/);
      case 'dropped':
        await expect(dialog(w)).toHaveCount(0);
        await expect(page.getByText(TEXTS.conflict.dropped).last()).toBeVisible();
        return expect(page.getByLabel('Address')).toHaveValue(String(w.data.theirs));
      case 'closed':
        await expect(dialog(w)).toHaveCount(0);
        return expect(page.getByLabel('Address')).toHaveValue(String(w.data.mine));
      case 'failed': {
        await expect(dialog(w)).toHaveCount(0);
        const refusal = w.data.refusal as Answer | undefined;
        if (!refusal) return expect(page.getByText(c.error ?? '').last()).toBeVisible();
        // docs/product.md#validation: the partner's address is required; a refused edit changes nothing.
        expect(refusal.status, 'the server refuses the edit').toBe(400);
        expect(refusal.errors.map((e) => e.fieldName)).toEqual(['address']);
        expect(await serverAddress(w), 'the refused edit changed nothing on the server').toBe(
          String(w.data.theirs),
        );
        // The server's own words on screen.
        for (const e of refusal.errors) await expect(page.getByText(e.message).last()).toBeVisible();
        return;
      }
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
};
