import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { approvalMessages, type RewardRequest } from '../../contract/approvals';
import { type Reward, rewardMessages } from '../../contract/rewards';
import { issueRewardMachine } from './issue-reward.machine';

/**
 * Four eyes at the Issue Reward form (issue 35, decision 074): above the club's threshold the server
 * answers 202 with a request waiting for a second person; the maker must read that it waits, never
 * that the reward was issued.
 */
const request = {
  id: 7,
  state: 'awaiting_approval',
  approvalReasons: ['The reward of ₦60,000.00 is above the ₦50,000.00 that needs a second person'],
} as RewardRequest;
const reward = { id: 12, code: 'GC-NEW1' } as Reward;

async function submitWith(answer: Reward | RewardRequest) {
  const machine = issueRewardMachine.provide({
    actors: { issueReward: fromPromise(async () => answer) },
  });
  const actor = createActor(machine, {
    input: { issuedTo: 42, partnerId: 3, online: true, openAttempt: false },
  });
  actor.start();
  actor.send({
    type: 'issue.change',
    values: {
      rewardType: 'GIFTCARD',
      issuedAmount: '60000',
      promotionalImage: 'iVBORw0KGgo=',
      title: 'Big thank-you',
      description: 'For a year of visits',
    },
  });
  actor.send({ type: 'issue.submit' });
  return toPromise(actor);
}

describe('the issue of a reward above the four-eyes threshold', () => {
  it('says it waits for approval when the answer is a request', async () => {
    const out = await submitWith(request);
    expect(out.message).toBe(approvalMessages.waiting);
    expect(out.message).not.toBe(rewardMessages.issued);
    expect(out.reward).toBe(request);
  });

  it('says it was issued when the answer is the reward', async () => {
    const out = await submitWith(reward);
    expect(out.message).toBe(rewardMessages.issued);
  });
});
