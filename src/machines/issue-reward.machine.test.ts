import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { RewardRequest } from '../../contract/approvals';
import type { IssueRewardBody, Reward } from '../../contract/rewards';
import { ApiError } from '../lib/api-error';
import { issueRewardMachine } from './issue-reward.machine';

/**
 * The Issue Reward form's flow, its rules read from docs/product.md (#validation 'Issue reward',
 * #constants, the 'Reward successfully issued' message) and decision 030 (a lost answer: the form says
 * it may have been issued; the success that follows says "Reward issued: it went through").
 * The expected texts are the product's words, written here, not the machine's constants.
 */

const ISSUED = 'Reward successfully issued';
const WENT_THROUGH = 'Reward issued: it went through';
const NETWORK_REQUIRED =
  'This needs a network connection. Nothing was sent; try again when you are back online.';

const reward = { id: 7, code: 'GC-7', rewardType: 'GIFTCARD', issuedAmount: 2000 } as unknown as Reward;

const filled = { title: '  Welcome gift ', description: 'Thanks for coming', promotionalImage: 'iVBOR' };

interface IssueCall {
  body: IssueRewardBody;
  idempotencyKey: string;
}

/** A server that answers each call in turn with `answers` (an error is thrown), then issues. */
function start(
  input: { issuedTo: number | null; partnerId?: number; online?: boolean; openAttempt?: boolean },
  answers: unknown[] = [],
) {
  const calls: IssueCall[] = [];
  const actor = createActor(
    issueRewardMachine.provide({
      actors: {
        issueReward: fromPromise(
          async ({ input: call }: { input: IssueCall }): Promise<Reward | RewardRequest> => {
            calls.push(call);
            const answer = answers[calls.length - 1];
            if (answer !== undefined) throw answer;
            return reward;
          },
        ),
      },
    }),
    { input },
  ).start();
  return { actor, calls };
}

describe('issue reward machine (docs/product.md#validation, #constants; decision 030)', () => {
  it('starts with the defaults 2,000 naira and 10 percent, nothing chosen, no error shown yet', () => {
    const { actor } = start({ issuedTo: 42, online: true });
    const c = actor.getSnapshot().context;
    expect(actor.getSnapshot().value).toBe('editing');
    expect(c.values).toMatchObject({ rewardType: '', issuedAmount: '2000', percentageDiscount: '10' });
    expect(c.touched).toEqual([]);
    expect(c.error).toBeNull();
    expect(c.reward).toBeNull();
  });

  it('a submit of an empty form shows every required field and sends nothing', () => {
    const { actor, calls } = start({ issuedTo: 42, online: true });
    actor.send({ type: 'issue.submit' });
    const c = actor.getSnapshot().context;
    expect(actor.getSnapshot().value).toBe('editing');
    expect(c.touched).toEqual(
      expect.arrayContaining(['rewardType', 'promotionalImage', 'title', 'description']),
    );
    expect(c.errors).toEqual({
      rewardType: 'Reward type is required',
      promotionalImage: 'Promotional image is required',
      title: 'Title is required',
      description: 'Description is required',
    });
    expect(calls).toEqual([]);
  });

  it('a field left shows its error once; a change re-checks the values and clears the failure', () => {
    const { actor } = start({ issuedTo: 42, online: true });
    actor.send({ type: 'issue.blur', field: 'title' });
    actor.send({ type: 'issue.blur', field: 'title' });
    expect(actor.getSnapshot().context.touched).toEqual(['title']);
    expect(actor.getSnapshot().context.errors.title).toBe('Title is required');
    actor.send({ type: 'issue.change', values: { title: 'Gift' } });
    expect(actor.getSnapshot().context.errors.title).toBeUndefined();
    expect(actor.getSnapshot().context.values.title).toBe('Gift');
    // The other values stay as they were.
    expect(actor.getSnapshot().context.values.issuedAmount).toBe('2000');
    actor.send({ type: 'issue.change', values: { rewardType: 'GIFTCARD', issuedAmount: '-3' } });
    expect(actor.getSnapshot().context.errors.issuedAmount).toBe('Issued amount must be a positive number');
    expect(actor.getSnapshot().context.values.title).toBe('Gift');
  });

  it('valid values with no customer chosen: says to choose one, sends nothing', () => {
    const { actor, calls } = start({ issuedTo: null, online: true });
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBe('Choose the customer to issue the reward to.');
    expect(calls).toEqual([]);
  });

  it('offline: refused with the network message, not queued; back online the same form is sent', async () => {
    const { actor, calls } = start({ issuedTo: 42, partnerId: 3, online: true });
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBe(NETWORK_REQUIRED);
    expect(calls).toEqual([]);
    actor.send({ type: 'network.online' });
    actor.send({ type: 'issue.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({
      rewardType: 'GIFTCARD',
      issuedAmount: 2000,
      promotionalImage: 'iVBOR',
      title: 'Welcome gift',
      description: 'Thanks for coming',
      issuedTo: 42,
      partnerId: 3,
      status: 'Active',
    });
    expect(calls[0]?.idempotencyKey).toMatch(/\S{8,}/);
    expect(done.output).toEqual({ reward, message: ISSUED });
    expect(done.context.error).toBeNull();
  });

  it('a coupon sends its percentage only; success outputs the issued reward and the message', async () => {
    const { actor, calls } = start({ issuedTo: 42, online: true });
    actor.send({
      type: 'issue.change',
      values: { ...filled, rewardType: 'COUPON', percentageDiscount: '25' },
    });
    actor.send({ type: 'issue.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(calls[0]?.body).toMatchObject({ rewardType: 'COUPON', percentageDiscount: 25, issuedTo: 42 });
    expect(calls[0]?.body).not.toHaveProperty('issuedAmount');
    expect(done.output).toEqual({ reward, message: ISSUED });
  });

  it("the server's field refusal goes under its field; Submit unchanged repeats the attempt, a change is a new one", async () => {
    const refusal = new ApiError(400, 'Validation failed', [
      { fieldName: 'promotionalImage', message: 'Image must be PNG, JPEG or WebP' },
      // A field the form does not have is not put under any field.
      { fieldName: 'issuedTo', message: 'Customer not found' },
    ]);
    const { actor, calls } = start({ issuedTo: 42, online: true }, [refusal, refusal]);
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.submit' });
    const failed = await waitFor(actor, (s) => s.matches('failure'));
    expect(failed.context.errors).toEqual({ promotionalImage: 'Image must be PNG, JPEG or WebP' });
    expect(failed.context.touched).toEqual(['promotionalImage']);
    expect(failed.context.error).toBe('Image must be PNG, JPEG or WebP. Customer not found.');
    expect(failed.context.uncertain).toBe(false);

    // Nothing changed: the same attempt, the same key.
    actor.send({ type: 'issue.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('failure') && calls.length === 2);
    expect(calls[1]?.idempotencyKey).toBe(calls[0]?.idempotencyKey);

    // Leaving a field in failure shows its error, and the form stays in failure.
    actor.send({ type: 'issue.blur', field: 'title' });
    expect(actor.getSnapshot().value).toBe('failure');
    expect(actor.getSnapshot().context.touched).toEqual(['promotionalImage', 'title']);

    // A change is a new attempt: back to editing, a new key on Submit.
    actor.send({ type: 'issue.change', values: { promotionalImage: 'UklGR' } });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'issue.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(calls).toHaveLength(3);
    expect(calls[2]?.idempotencyKey).not.toBe(calls[0]?.idempotencyKey);
    expect(calls[2]?.body.promotionalImage).toBe('UklGR');
    expect(done.output).toEqual({ reward, message: ISSUED });
  });

  it('a refusal already shown under a touched field does not touch it twice', async () => {
    const refusal = new ApiError(400, 'Validation failed', [
      { fieldName: 'title', message: 'Title is too long' },
    ]);
    const { actor } = start({ issuedTo: 42, online: true }, [refusal]);
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.blur', field: 'title' });
    actor.send({ type: 'issue.submit' });
    const failed = await waitFor(actor, (s) => s.matches('failure'));
    expect(failed.context.touched).toEqual(['title']);
    expect(failed.context.errors.title).toBe('Title is too long');
  });

  it("a field left before the refusal stays touched beside the server's field", async () => {
    const refusal = new ApiError(400, 'Validation failed', [
      { fieldName: 'promotionalImage', message: 'Image must be PNG, JPEG or WebP' },
    ]);
    const { actor } = start({ issuedTo: 42, online: true }, [refusal]);
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.blur', field: 'description' });
    actor.send({ type: 'issue.submit' });
    const failed = await waitFor(actor, (s) => s.matches('failure'));
    expect(failed.context.touched).toEqual(['description', 'promotionalImage']);
  });

  it("a second refusal's field messages replace the first's: a field the server no longer names shows none", async () => {
    // Submit unchanged repeats the attempt; between the two answers the server's view moved on (the
    // image was accepted, the expiry date is now refused). The form shows the latest answer only.
    const first = new ApiError(400, 'Validation failed', [
      { fieldName: 'promotionalImage', message: 'Image must be PNG, JPEG or WebP' },
    ]);
    const second = new ApiError(400, 'Validation failed', [
      { fieldName: 'expiryDate', message: 'Expiry date must be in the future' },
    ]);
    const { actor, calls } = start({ issuedTo: 42, online: true }, [first, second]);
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.submit' });
    await waitFor(actor, (s) => s.matches('failure') && calls.length === 1);
    expect(actor.getSnapshot().context.errors).toEqual({
      promotionalImage: 'Image must be PNG, JPEG or WebP',
    });
    actor.send({ type: 'issue.submit' });
    const again = await waitFor(actor, (s) => s.matches('failure') && calls.length === 2);
    expect(again.context.errors).toEqual({ expiryDate: 'Expiry date must be in the future' });
    expect(again.context.touched).toEqual(expect.arrayContaining(['promotionalImage', 'expiryDate']));
  });

  it('offline after a failure: refused with the network message, nothing sent, still the failure', async () => {
    const { actor, calls } = start({ issuedTo: 42, online: true }, [
      new ApiError(409, 'Partner is blocked', [], 'partner_blocked'),
    ]);
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.submit' });
    await waitFor(actor, (s) => s.matches('failure'));
    expect(actor.getSnapshot().context.error).toBe('Partner is blocked');
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'issue.submit' });
    expect(actor.getSnapshot().value).toBe('failure');
    expect(actor.getSnapshot().context.error).toBe(NETWORK_REQUIRED);
    expect(calls).toHaveLength(1);
  });

  it('no answer: it may have been issued; the Submit that then succeeds says it went through', async () => {
    const { actor, calls } = start({ issuedTo: 42, online: true }, [new ApiError(0, 'Network Error')]);
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.submit' });
    const failed = await waitFor(actor, (s) => s.matches('failure'));
    expect(failed.context.error).toBe(
      'No answer from the server: the reward may have been issued. Submit again to check; it will not be issued twice.',
    );
    // No field error is made up from a lost answer.
    expect(failed.context.errors).toEqual({});
    actor.send({ type: 'issue.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(calls[1]?.idempotencyKey).toBe(calls[0]?.idempotencyKey);
    expect(done.output).toEqual({ reward, message: WENT_THROUGH });
  });

  it('an attempt open from before (a reload) makes the success say it went through', async () => {
    const { actor } = start({ issuedTo: 42, online: true, openAttempt: true });
    actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
    actor.send({ type: 'issue.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.output).toEqual({ reward, message: WENT_THROUGH });
  });

  it('no attempt open from before: the plain success message', async () => {
    for (const openAttempt of [false, undefined]) {
      const { actor } = start({
        issuedTo: 42,
        online: true,
        ...(openAttempt === false ? { openAttempt } : {}),
      });
      actor.send({ type: 'issue.change', values: { ...filled, rewardType: 'GIFTCARD' } });
      actor.send({ type: 'issue.submit' });
      const done = await waitFor(actor, (s) => s.status === 'done');
      expect(done.output).toEqual({ reward, message: ISSUED });
    }
  });
});
