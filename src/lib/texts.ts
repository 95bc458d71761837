import { customerMessages } from '../../contract/customers';
import { partnerMessages } from '../../contract/partners';
import { reversalMessages } from '../../contract/redemption';
import { ERROR_FALLBACK } from './error-fallback';

/**
 * The texts the SPA shows in more than one place, and the ones docs/product.md prescribes word for word
 * (section 4's success messages, section 2's confirmations and empty states): one catalogue, so a
 * sentence is changed once and the screens and tests that show or check it read it from here.
 * Rules the server shares (validation messages, reward and concurrency messages) stay in contract/;
 * a text used by one screen only stays beside that screen.
 */
export const TEXTS = {
  /** docs/product.md#errors: the last fallback of every failure shown (API client, flows, auth screens). */
  errorFallback: ERROR_FALLBACK,
  /** A deletion's confirmation (docs/product.md#screens's wording), naming what goes: 'the role Cashier'. */
  deleteConfirm: (what = 'this record') =>
    `Are you sure you want to delete ${what}? This action cannot be undone.`,
  /** docs/product.md#states's success messages and section 2's confirmations and empty states, word for word. */
  spec: {
    partnerAdded: partnerMessages.added,
    recordUpdated: customerMessages.updated,
    inviteSuccess: 'Update successful',
    deletePartner: partnerMessages.deleteConfirm,
    deleteCustomer: customerMessages.deleteConfirm,
    noUserData: 'No user data found.',
    noVisitHistory: 'No visit history available.',
  },
  /** The outbox (decision 010): the form's note when an edit is kept, and the sign-out warning. */
  outbox: {
    savedOffline: 'Saved on this device; it will be sent when you are back online.',
    discardConfirm: 'Changes saved on this device have not been sent yet. Signing out discards them.',
  },
  /** The redemption reversal dialog (src/machines/reversal.machine.ts). */
  reversal: {
    reasonRequired: reversalMessages.reasonRequired,
    noAnswer: 'The server could not be reached. Try again: a retry will not reverse twice.',
    offline: 'You are offline. A reversal needs the network.',
    done: 'Redemption reversed',
  },
  /** Campaigns (issue 35, decision 073): the screens, the walk and the e2e spec read these. */
  campaign: {
    states: {
      draft: 'Draft',
      awaiting_approval: 'Waiting for approval',
      running: 'Running',
      done: 'Done',
      cancelled: 'Cancelled',
      rejected: 'Rejected',
      failed: 'Failed',
      expired: 'Expired',
    },
    skipReasons: {
      not_found: 'Names no customer',
      erased: 'Erased',
      blocked: 'Blocked',
      not_linked: 'Not linked to the partner',
      already_rewarded: 'Already holds this reward',
    },
    waiting:
      'This campaign waits for a second person holding Approve rewards: nothing is issued until they approve it.',
    started: 'Campaign started: rewards are being issued.',
    cancelConfirm:
      'Cancel this campaign? Rewards already issued stay with their customers; nothing more is issued.',
    noPreview: 'The preview could not be loaded.',
  },
  /** The 409 choice (src/machines/conflict.machine.ts), for the outbox and an online form alike. */
  conflict: {
    title: 'This record changed on the server',
    explain: (label: string) =>
      `${label}: someone else changed this record after you opened it. Keep your version, or use theirs and drop your change.`,
    keepMine: 'Keep mine',
    useTheirs: 'Use theirs',
    saving: 'Saving your choice',
    dropped: 'Your change was dropped; the form shows the record as it is now.',
  },
} as const;
