import { and, assign, fromPromise, setup } from 'xstate';
import type { Campaign, CampaignPreview } from '../../contract/campaigns';
import { rejectCampaignBodySchema } from '../../contract/campaigns';
import { errorText, fieldErrorsOf } from '../lib/error-message';

/**
 * A campaign's flow in the console (issue 35, decision 073): a saved draft is previewed (how many
 * customers, the face value, who is skipped and why), then submitted: it runs at once, or waits for
 * a second person's approval (the server's `data.state` says which). A waiting campaign is approved
 * (it runs) or rejected with a reason by a holder of `rewards.approve` who is not its maker; a
 * draft, a waiting or a running campaign can be cancelled. The server holds the state: the screen
 * polls the campaign while it runs or waits and sends each read whose state moved on
 * (`campaign.read`), so a reload, another tab or another person's decision lands here too.
 * The effects are named actors the screen provides (src/routes/dashboard/campaigns/-components).
 */

export type CampaignState = Campaign['state'];

export interface CampaignInput {
  /** The campaign as the server last answered it. */
  campaign: Campaign;
  /** The signed-in user holds `rewards.approve` and is not the campaign's maker. */
  mayDecide: boolean;
}

export interface CampaignContext {
  campaign: Campaign;
  preview: CampaignPreview | null;
  mayDecide: boolean;
  /** The last refusal or failure, as a sentence; cleared by the next try. */
  error: string | null;
  /** Why a rejection's reason was refused (the contract's rule or the server's words). */
  reasonError: string | null;
}

export type CampaignEvent =
  | { type: 'campaign.preview' }
  | { type: 'campaign.submit' }
  | { type: 'campaign.approve' }
  | { type: 'campaign.reject'; reason: string }
  | { type: 'campaign.cancel' }
  /** The server's campaign, read by the screen, in another state than the machine's. */
  | { type: 'campaign.read'; campaign: Campaign };

/** The reason's first problem under the contract's rule, or null when it may be sent. */
export const rejectReasonProblem = (reason: string): string | null => {
  const parsed = rejectCampaignBodySchema.safeParse({ reason });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Give a reason');
};

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));
const idOf = ({ context }: { context: CampaignContext }) => ({ id: context.campaign.id });
const reasonOf = (error: unknown) => fieldErrorsOf(error).find((e) => e.fieldName === 'reason')?.message;

export const campaignMachine = setup({
  types: {
    context: {} as CampaignContext,
    events: {} as CampaignEvent,
    input: {} as CampaignInput,
  },
  actors: {
    loadPreview: fromPromise<CampaignPreview, { id: number }>(notProvided('loadPreview')),
    submitCampaign: fromPromise<Campaign, { id: number }>(notProvided('submitCampaign')),
    approveCampaign: fromPromise<Campaign, { id: number }>(notProvided('approveCampaign')),
    rejectCampaign: fromPromise<Campaign, { id: number; reason: string }>(notProvided('rejectCampaign')),
    cancelCampaign: fromPromise<Campaign, { id: number }>(notProvided('cancelCampaign')),
  },
  actions: {
    fail: assign({ error: ({ event }) => errorText((event as unknown as { error?: unknown }).error) }),
    keepAnswer: assign({
      campaign: ({ event }) => (event as unknown as { output: Campaign }).output,
      error: null,
      reasonError: null,
    }),
  },
  guards: {
    is: ({ context }, state: CampaignState) => context.campaign.state === state,
    mayDecide: ({ context }) => context.mayDecide,
    isReasonInvalid: ({ event }) =>
      event.type === 'campaign.reject' && rejectReasonProblem(event.reason) !== null,
  },
}).createMachine({
  id: 'campaign',
  context: ({ input }) => ({
    campaign: input.campaign,
    preview: null,
    mayDecide: input.mayDecide,
    error: null,
    reasonError: null,
  }),
  initial: 'route',
  on: {
    // The server moved on (another tab, another person, the run's end): follow it.
    'campaign.read': {
      target: '.route',
      actions: assign({ campaign: ({ event }) => event.campaign, error: null }),
    },
  },
  states: {
    /** Where the campaign's server state puts the flow. */
    route: {
      always: [
        { guard: { type: 'is', params: 'draft' }, target: 'previewing' },
        { guard: { type: 'is', params: 'awaiting_approval' }, target: 'waiting' },
        { guard: { type: 'is', params: 'running' }, target: 'running' },
        { guard: { type: 'is', params: 'cancelled' }, target: 'cancelled' },
        { guard: { type: 'is', params: 'rejected' }, target: 'rejected' },
        { guard: { type: 'is', params: 'failed' }, target: 'failed' },
        // A request nobody decided within the club's approvalExpiryDays (decision 074): nothing was
        // issued, nothing is left to do.
        { guard: { type: 'is', params: 'expired' }, target: 'expired' },
        { target: 'done' },
      ],
    },
    previewing: {
      invoke: {
        id: 'loadPreview',
        src: 'loadPreview',
        input: idOf,
        onDone: {
          target: 'preview',
          actions: assign({ preview: ({ event }) => event.output }),
        },
        onError: { target: 'preview', actions: 'fail' },
      },
    },
    preview: {
      on: {
        'campaign.preview': { target: 'previewing', actions: assign({ error: null }) },
        'campaign.submit': { target: 'submitting', actions: assign({ error: null }) },
        'campaign.cancel': { target: 'cancelling', actions: assign({ error: null }) },
      },
    },
    submitting: {
      invoke: {
        id: 'submitCampaign',
        src: 'submitCampaign',
        input: idOf,
        onDone: { target: 'route', actions: 'keepAnswer' },
        onError: { target: 'preview', actions: 'fail' },
      },
    },
    waiting: {
      on: {
        // Approving leaves a rejection begun: its reason's refusal goes with its dialog.
        'campaign.approve': {
          guard: 'mayDecide',
          target: 'approving',
          actions: assign({ error: null, reasonError: null }),
        },
        'campaign.reject': [
          {
            guard: and(['mayDecide', 'isReasonInvalid']),
            actions: assign({
              reasonError: ({ event }) => rejectReasonProblem(event.reason),
              error: null,
            }),
          },
          {
            guard: 'mayDecide',
            target: 'rejecting',
            actions: assign({ reasonError: null, error: null }),
          },
        ],
        'campaign.cancel': { target: 'cancelling', actions: assign({ error: null }) },
      },
    },
    approving: {
      invoke: {
        id: 'approveCampaign',
        src: 'approveCampaign',
        input: idOf,
        onDone: { target: 'route', actions: 'keepAnswer' },
        onError: { target: 'waiting', actions: 'fail' },
      },
    },
    rejecting: {
      invoke: {
        id: 'rejectCampaign',
        src: 'rejectCampaign',
        input: ({ context, event }) => ({
          id: context.campaign.id,
          reason: event.type === 'campaign.reject' ? event.reason.trim() : '',
        }),
        onDone: { target: 'route', actions: 'keepAnswer' },
        onError: {
          target: 'waiting',
          actions: assign({
            reasonError: ({ event }) => reasonOf(event.error) ?? null,
            error: ({ event }) => (reasonOf(event.error) ? null : errorText(event.error)),
          }),
        },
      },
    },
    running: {
      on: { 'campaign.cancel': { target: 'cancelling', actions: assign({ error: null }) } },
    },
    /** A refusal (the run ended first: 409) goes back to the campaign's state as last read. */
    cancelling: {
      invoke: {
        id: 'cancelCampaign',
        src: 'cancelCampaign',
        input: idOf,
        onDone: { target: 'route', actions: 'keepAnswer' },
        onError: { target: 'route', actions: 'fail' },
      },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
    rejected: { type: 'final' },
    failed: { type: 'final' },
    expired: { type: 'final' },
  },
});
