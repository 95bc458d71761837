import { expect } from 'vitest';
import { rewardMessages } from '../../contract/rewards';
import {
  type IssueRewardContext,
  issueRewardMachine,
  NO_TARGET_MESSAGE,
} from '../../src/machines/issue-reward.machine';
import { issueFieldError, issueRewardModel } from './flow-paths';
import type { FlowHarness } from './flow-runner';
import { modelSuite } from './model-suite';

const harness: FlowHarness = {
  provide: (fakes) => issueRewardMachine.provide({ actors: { issueReward: fakes.actor('issueReward') } }),
  check: ({ step, before, after, fakes, newCalls }) => {
    const b = before.context as IssueRewardContext;
    const c = after.context as IssueRewardContext;
    if (step.event.type === 'issue.submit' && !after.matches('submitting')) {
      expect(newCalls).toEqual([]);
      if (Object.keys(b.errors).length) expect(c.touched.length).toBeGreaterThan(0);
      else if (!b.target.issuedTo) expect(c.error).toBe(NO_TARGET_MESSAGE);
      else if (!b.online) expect(c.error).toBe(rewardMessages.networkRequired);
    }
    const [call] = newCalls;
    if (call) {
      const { body, idempotencyKey } = call.input as {
        body: Record<string, unknown>;
        idempotencyKey: string;
      };
      expect(body).toMatchObject({ issuedTo: 42, partnerId: 3, status: 'Active', title: 'Welcome gift' });
      // Only the chosen type's amount is sent: docs/product.md#validation, defaults of docs/product.md#constants.
      if (body.rewardType === 'GIFTCARD') {
        expect(body.issuedAmount).toBe(2000);
        expect(body).not.toHaveProperty('percentageDiscount');
      } else {
        expect(body.percentageDiscount).toBe(10);
        expect(body).not.toHaveProperty('issuedAmount');
      }
      const keys = fakes
        .callsOf('issueReward')
        .map((x) => (x.input as { idempotencyKey: string }).idempotencyKey);
      if (before.matches('failure')) expect(idempotencyKey).toBe(keys[keys.length - 2]);
      else expect(keys.slice(0, -1)).not.toContain(idempotencyKey);
    }
    if ((step.event as { error?: unknown }).error === issueFieldError) {
      expect(c.errors.promotionalImage).toBe('Image must be PNG, JPEG or WebP');
      expect(c.error).toBe('Image must be PNG, JPEG or WebP.');
    }
    if (after.matches('success')) {
      expect(after.output).toMatchObject({ message: 'Reward successfully issued' });
    }
  },
};

modelSuite(issueRewardModel, harness);
