import { assign, fromPromise, setup } from 'xstate';
import { approvalMessages, isRewardRequest, type RewardRequest } from '../../contract/approvals';
import { type IssueRewardBody, type Reward, rewardMessages } from '../../contract/rewards';
import { errorText, fieldErrorsOf } from '../lib/error-message';
import { newIdempotencyKey } from '../lib/idempotency-key';
import { attemptId, isSettledRefusal, readOpenAttempt } from '../lib/open-attempts';
import { type NetworkEvent, startsOnline } from './flow-support';
import {
  type IssueErrors,
  type IssueField,
  type IssueTarget,
  type IssueValues,
  initialIssueValues,
  toIssueRewardBody,
  validateIssueValues,
} from './issue-reward-form';

/**
 * The Issue Reward form (docs/product.md#states and #validation): editing with the defaults of docs/product.md#constants, a
 * submit only with valid values and a target customer, then success ('Reward successfully issued')
 * or failure (docs/product.md#errors). Issuing needs the network: offline, it is refused and not queued.
 * Submitting again after a failure, with nothing changed, repeats the same attempt (same key).
 * After a lost answer (issue 17) the live effect keeps the attempt open (src/lib/open-attempts.ts)
 * and sends it first on every later Submit for the same customer and partner, whatever the form
 * holds then, also after a reload: the reward is issued once, and the cashier reads
 * 'Reward issued: it went through'.
 */

export interface IssueRewardInput extends IssueTarget {
  online?: boolean;
  /** An issue of this target is open from before (a reload); read from localStorage when omitted. */
  openAttempt?: boolean;
}

/** Which open attempt an issue to this customer at this partner is (src/lib/open-attempts.ts). */
export const issueAttemptId = (target: { partnerId?: number | undefined; issuedTo: number | null }) =>
  attemptId('issue', target.partnerId ?? 'own', target.issuedTo ?? 0);

/** What the cashier reads when the answer to an issue was lost. */
export const ISSUE_OUTCOME_UNKNOWN =
  'No answer from the server: the reward may have been issued. Submit again to check; it will not be issued twice.';
/** ... and when that issue turns out to have gone through (or went through on the next Submit). */
export const ISSUED_WENT_THROUGH = 'Reward issued: it went through';

export interface IssueRewardContext {
  target: IssueTarget;
  values: IssueValues;
  /** Fields whose errors are shown (left once, or everything after a submit). */
  touched: IssueField[];
  errors: IssueErrors;
  online: boolean;
  idempotencyKey: string | null;
  error: string | null;
  /** The reward issued, or the request waiting for a second person (above the four-eyes threshold). */
  reward: Reward | RewardRequest | null;
  /** An answer to an issue of this target was lost: the next success says plainly it went through. */
  uncertain: boolean;
}

export type IssueRewardEvent =
  | { type: 'issue.change'; values: Partial<IssueValues> }
  | { type: 'issue.blur'; field: IssueField }
  | { type: 'issue.submit' }
  | NetworkEvent;

export interface IssueRewardOutput {
  reward: Reward | RewardRequest | null;
  message: string;
}

export const NO_TARGET_MESSAGE = 'Choose the customer to issue the reward to.';
const ALL_FIELDS = Object.keys(initialIssueValues()) as IssueField[];

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

export const issueRewardMachine = setup({
  types: {
    context: {} as IssueRewardContext,
    events: {} as IssueRewardEvent,
    input: {} as IssueRewardInput,
    output: {} as IssueRewardOutput,
  },
  actors: {
    issueReward: fromPromise<Reward | RewardRequest, { body: IssueRewardBody; idempotencyKey: string }>(
      notProvided('issueReward'),
    ),
  },
  actions: {
    change: assign(({ context, event }) => {
      if (event.type !== 'issue.change') return {};
      const values = { ...context.values, ...event.values };
      return { values, errors: validateIssueValues(values), error: null };
    }),
    touch: assign({
      touched: ({ context, event }) =>
        event.type === 'issue.blur' && !context.touched.includes(event.field)
          ? [...context.touched, event.field]
          : context.touched,
      errors: ({ context }) => validateIssueValues(context.values),
    }),
    showAllErrors: assign({
      touched: () => [...ALL_FIELDS],
      errors: ({ context }) => validateIssueValues(context.values),
    }),
    refuseOffline: assign({ error: rewardMessages.networkRequired }),
    refuseNoTarget: assign({ error: NO_TARGET_MESSAGE }),
    newAttempt: assign({ idempotencyKey: () => newIdempotencyKey(), error: null }),
    showFailure: assign(({ context, event }) => {
      const error = (event as { error?: unknown }).error;
      // The form's own checks of the values sent, and this answer's field errors under their fields: an
      // earlier refusal's field message the server no longer gives is not kept (a repeated Submit).
      const errors: IssueErrors = validateIssueValues(context.values);
      const touched = [...context.touched];
      for (const e of fieldErrorsOf(error)) {
        if (ALL_FIELDS.includes(e.fieldName as IssueField)) {
          errors[e.fieldName as IssueField] = e.message;
          if (!touched.includes(e.fieldName as IssueField)) touched.push(e.fieldName as IssueField);
        }
      }
      // No answer: it may have been issued; the attempt stays open (the live effect keeps it).
      if (!isSettledRefusal(error)) return { error: ISSUE_OUTCOME_UNKNOWN, uncertain: true };
      return { error: errorText(error), errors, touched, uncertain: false };
    }),
  },
  guards: {
    isOffline: ({ context }) => !context.online,
    isInvalid: ({ context }) => Object.keys(validateIssueValues(context.values)).length > 0,
    hasNoTarget: ({ context }) => !context.target.issuedTo,
  },
}).createMachine({
  id: 'issueReward',
  context: ({ input }) => ({
    target: { issuedTo: input.issuedTo, partnerId: input.partnerId, byPoints: input.byPoints },
    values: initialIssueValues(),
    touched: [],
    errors: validateIssueValues(initialIssueValues()),
    online: startsOnline(input.online),
    idempotencyKey: null,
    error: null,
    reward: null,
    uncertain:
      input.openAttempt ?? (input.issuedTo !== null && readOpenAttempt(issueAttemptId(input)) !== null),
  }),
  initial: 'editing',
  on: {
    'network.offline': { actions: assign({ online: false }) },
    'network.online': { actions: assign({ online: true }) },
  },
  states: {
    editing: {
      on: {
        'issue.change': { actions: 'change' },
        'issue.blur': { actions: 'touch' },
        'issue.submit': [
          { guard: 'isInvalid', actions: 'showAllErrors' },
          { guard: 'hasNoTarget', actions: 'refuseNoTarget' },
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'submitting', actions: 'newAttempt' },
        ],
      },
    },
    submitting: {
      invoke: {
        id: 'issueReward',
        src: 'issueReward',
        input: ({ context }) => ({
          body: toIssueRewardBody(context.values, context.target),
          idempotencyKey: context.idempotencyKey ?? '',
        }),
        onDone: { target: 'success', actions: assign({ reward: ({ event }) => event.output }) },
        onError: { target: 'failure', actions: 'showFailure' },
      },
    },
    // The form stays on screen with the error; a change is a new attempt, a submit repeats this one.
    failure: {
      on: {
        'issue.change': { target: 'editing', actions: 'change' },
        'issue.blur': { actions: 'touch' },
        'issue.submit': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'submitting', actions: assign({ error: null }) },
        ],
      },
    },
    success: { type: 'final' },
  },
  output: ({ context }) => ({
    reward: context.reward,
    // Above the four-eyes threshold nothing was issued yet: the maker reads that it waits (decision 074).
    message:
      context.reward && isRewardRequest(context.reward)
        ? approvalMessages.waiting
        : context.uncertain
          ? ISSUED_WENT_THROUGH
          : rewardMessages.issued,
  }),
});
