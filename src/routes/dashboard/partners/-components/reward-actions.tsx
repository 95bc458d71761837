import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { Reward } from '../../../../../contract/rewards';
import { css } from '../../../../../styled-system/css';
import { approvalKeys } from '../../../../api/approvals';
import { partnerKeys } from '../../../../api/partners';
import { rewardFigureKeys, rewardKeys } from '../../../../api/rewards';
import { statsKeys } from '../../../../api/stats';
import { visitKeys } from '../../../../api/visits';
import { IssueRewardForm } from '../../../../components/rewards/issue-reward-form';
import { RedeemReward } from '../../../../components/rewards/redeem-reward';
import { Button } from '../../../../components/ui/button';
import { Dialog } from '../../../../components/ui/dialog';
import type { RedeemableReward } from '../../../../machines/redeem.machine';

/** Who a reward is being issued to from the partner detail (a row of Eligible users or the points modal). */
export interface IssueTarget {
  partnerId: number;
  issuedTo: number;
  name: string;
  /** Issued from 'Eligible Users For Reward By Accumulated Points': claims the unclaimed points. */
  byPoints?: boolean;
}

export const ISSUE_DIALOG_TITLE = 'Issue Reward';

/** A row's 'Issue Reward' action; its accessible name says whom it is for ('Issue Reward to Ngozi Eze'). */
export function IssueRewardButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button size="sm" variant="outline" aria-label={`Issue Reward to ${name}`} onClick={onClick}>
      Issue Reward
    </Button>
  );
}

/** A reward row's 'Redeem' action ('Redeem GC-7QK2'). */
export function RedeemButton({ code, onClick }: { code: string; onClick: () => void }) {
  return (
    <Button size="sm" variant="outline" aria-label={`Redeem ${code}`} onClick={onClick}>
      Redeem
    </Button>
  );
}

/**
 * After a reward was issued or redeemed, what the partner detail shows of it is stale: its rewards,
 * eligible users and points, its analytics and the club-wide reward figures.
 */
export function invalidateRewardQueries(queryClient: QueryClient, partnerId: number) {
  void queryClient.invalidateQueries({ queryKey: rewardKeys.partnerLists() });
  void queryClient.invalidateQueries({ queryKey: visitKeys.eligible() });
  void queryClient.invalidateQueries({ queryKey: [...visitKeys.all, 'points'] });
  void queryClient.invalidateQueries({ queryKey: partnerKeys.analytics(partnerId) });
  void queryClient.invalidateQueries({ queryKey: statsKeys.all });
  void queryClient.invalidateQueries({ queryKey: rewardFigureKeys.all() });
  // A reward above the four-eyes threshold became a request (decision 074): its list and the queue.
  void queryClient.invalidateQueries({ queryKey: approvalKeys.all });
}

/**
 * The Issue Reward form in the generic Dialog, for one customer of one partner. On success the form
 * shows 'Reward successfully issued'; here the app goes to /dashboard/eligibility (docs/product.md#states)
 * and then marks the partner's reward, eligibility and analytics queries stale.
 */
export function IssueRewardDialog({ target, onClose }: { target: IssueTarget | null; onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const partnerId = target?.partnerId;
  const { session } = useRouteContext({ from: '__root__' });
  const ownPartner = useSelector(session, (s) => s.context.session?.user.partnerId ?? null);
  const onIssued = useCallback(async () => {
    onClose();
    // Club staff go to the club's eligibility screen (docs/product.md#modals); partner staff stay on their
    // partner's page, the one screen of theirs that shows it (issue 28, defect 5).
    if (ownPartner !== null)
      await navigate({ to: '/dashboard/partners/$partnerId', params: { partnerId: ownPartner } });
    else await navigate({ to: '/dashboard/eligibility' });
    if (partnerId !== undefined) invalidateRewardQueries(queryClient, partnerId);
  }, [navigate, onClose, ownPartner, partnerId, queryClient]);

  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()} title={ISSUE_DIALOG_TITLE}>
      {target ? (
        <>
          <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>
            To <strong>{target.name}</strong>
            {target.byPoints ? ', claiming their unclaimed points' : ''}
          </p>
          <IssueRewardForm
            target={{ issuedTo: target.issuedTo, partnerId: target.partnerId, byPoints: target.byPoints }}
            onIssued={onIssued}
            onCancel={onClose}
          />
        </>
      ) : null}
    </Dialog>
  );
}

/** A reward row as the redemption flow needs it. */
export const toRedeemable = (reward: Reward): RedeemableReward => ({
  userId: reward.user.id,
  code: reward.code,
  rewardType: reward.rewardType,
  balance: reward.balance,
});

/**
 * The redemption of one reward from the Rewards tab: the OTP modal, then the Redeem modal. On
 * success the server's message is shown (by RedeemReward), the modal closes and the app goes to
 * /dashboard/rewards (docs/product.md#states); then the partner's queries are marked stale.
 */
export function RedeemRewardFlow({
  partnerId,
  reward,
  onClose,
}: {
  partnerId: number;
  reward: Reward | null;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onRedeemed = useCallback(async () => {
    onClose();
    await navigate({ to: '/dashboard/rewards' });
    invalidateRewardQueries(queryClient, partnerId);
  }, [navigate, onClose, partnerId, queryClient]);
  if (!reward) return null;
  return (
    <RedeemReward key={reward.id} reward={toRedeemable(reward)} onRedeemed={onRedeemed} onClose={onClose} />
  );
}
