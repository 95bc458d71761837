import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { AnyStateMachine } from 'xstate';
import type { RewardRequest } from '../../../contract/approvals';
import { IMAGE_HELPER_TEXT } from '../../../contract/images';
import type { Reward } from '../../../contract/rewards';
import { css } from '../../../styled-system/css';
import { rewardTypeCategoriesQueryOptions, rewardTypesQueryOptions } from '../../api/rewards';
import { fileToBase64 } from '../../lib/form';
import { IMAGE_ACCEPT, imageFileProblem } from '../../lib/image-file';
import { useNetworkEvents } from '../../lib/use-network-events';
import type { IssueRewardInput } from '../../machines/issue-reward.machine';
import type { IssueField } from '../../machines/issue-reward-form';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { notify } from '../ui/notify';
import { SelectField, type SelectOption } from '../ui/select';
import { liveIssueRewardMachine } from './redeem-effects';

export const TYPE_LABELS: Record<Reward['rewardType'], string> = { GIFTCARD: 'Gift card', COUPON: 'Coupon' };
export const CATEGORY_LABELS: Record<Reward['rewardTypeCategory'], string> = {
  GENERAL: 'General',
  DISCOUNTED_SUBSCRIPTION: 'Discounted subscription',
};

/**
 * The select's options from a server list (GET /partners/reward-types or …-categories): the values
 * this form knows how to send, in the server's order; the fixed list while it loads or on error.
 */
export function optionsFrom<T extends string>(
  labels: Record<T, string>,
  fromServer: readonly string[] | undefined,
): SelectOption[] {
  const known = (fromServer ?? []).filter((v): v is T => Object.hasOwn(labels, v));
  const values = known.length > 0 ? known : (Object.keys(labels) as T[]);
  return values.map((value) => ({ value, label: labels[value] }));
}

export interface IssueRewardFormProps {
  /** The customer (and partner) the reward is for; the form submits only with a customer. */
  target: IssueRewardInput;
  /** After 'Reward successfully issued': the caller goes to /dashboard/eligibility (docs/product.md#states). */
  onIssued: (reward: Reward | RewardRequest | null) => void;
  onCancel?: () => void;
  /** The issueReward machine with its effects (tests pass fakes); the real call by default. */
  machine?: AnyStateMachine;
}

/**
 * The Issue Reward form (docs/product.md#validation), driven by the issueReward machine. The type and category
 * choices come from the server's lists when they answer.
 */
export function IssueRewardForm({
  target,
  onIssued,
  onCancel,
  machine = liveIssueRewardMachine,
}: IssueRewardFormProps) {
  const actor = useActorRef(machine as typeof liveIssueRewardMachine, { input: target });
  useNetworkEvents(actor);
  const snapshot = useSelector(actor, (s) => s);
  const { values, errors, touched, error } = snapshot.context;
  const [imageError, setImageError] = useState<string | undefined>();
  const submitting = snapshot.matches('submitting');
  const types = useQuery({ ...rewardTypesQueryOptions(), retry: false });
  const categories = useQuery({ ...rewardTypeCategoriesQueryOptions(), retry: false });
  const typeOptions = optionsFrom(TYPE_LABELS, types.data);
  const categoryOptions = optionsFrom(CATEGORY_LABELS, categories.data);

  useEffect(() => {
    if (snapshot.status !== 'done') return;
    notify.success(snapshot.output?.message ?? 'Reward successfully issued');
    onIssued(snapshot.output?.reward ?? null);
  }, [snapshot.status, snapshot.output, onIssued]);

  const shown = (field: IssueField) => (touched.includes(field) ? errors[field] : undefined);
  const bind = (field: Exclude<IssueField, 'promotionalImage' | 'rewardType' | 'rewardTypeCategory'>) => ({
    value: values[field],
    error: shown(field),
    onChange: (e: { target: { value: string } }) =>
      actor.send({ type: 'issue.change', values: { [field]: e.target.value } }),
    onBlur: () => actor.send({ type: 'issue.blur', field }),
  });

  return (
    <form
      noValidate
      aria-label="Issue reward"
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'issue.submit' });
      }}
      className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
    >
      <SelectField
        label="Reward type"
        placeholder="Choose a reward type"
        options={typeOptions}
        value={values.rewardType}
        error={shown('rewardType')}
        onChange={(e) =>
          actor.send({
            type: 'issue.change',
            values: { rewardType: e.target.value as typeof values.rewardType },
          })
        }
        onBlur={() => actor.send({ type: 'issue.blur', field: 'rewardType' })}
      />
      <SelectField
        label="Reward category (optional)"
        placeholder="No category"
        options={categoryOptions}
        value={values.rewardTypeCategory}
        onChange={(e) =>
          actor.send({
            type: 'issue.change',
            values: { rewardTypeCategory: e.target.value as typeof values.rewardTypeCategory },
          })
        }
      />
      {values.rewardType === 'GIFTCARD' ? (
        <TextField label="Issued amount (₦)" inputMode="decimal" {...bind('issuedAmount')} />
      ) : null}
      {values.rewardType === 'COUPON' ? (
        <TextField label="Percentage discount (%)" inputMode="decimal" {...bind('percentageDiscount')} />
      ) : null}
      <TextField label="Title" {...bind('title')} />
      <TextField label="Description" multiline {...bind('description')} />
      <TextField label="Expiry date (optional)" type="date" {...bind('expiryDate')} />
      <TextField
        label="Promotional image"
        type="file"
        accept={IMAGE_ACCEPT}
        helperText={IMAGE_HELPER_TEXT}
        error={imageError ?? shown('promotionalImage')}
        onChange={async (e) => {
          const file = e.target.files?.[0];
          const problem = file ? imageFileProblem(file) : null;
          setImageError(problem ?? undefined);
          if (!file || problem) {
            actor.send({ type: 'issue.change', values: { promotionalImage: '' } });
          } else {
            actor.send({ type: 'issue.change', values: { promotionalImage: await fileToBase64(file) } });
          }
          actor.send({ type: 'issue.blur', field: 'promotionalImage' });
        }}
      />
      {error ? (
        <p role="alert" className={css({ color: 'fg.error', fontSize: 'sm' })}>
          {error}
        </p>
      ) : null}
      <div className={css({ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: '2' })}>
        {onCancel ? (
          <Button variant="outline" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
        ) : null}
        {/* Busy, not swapped for a spinner, so focus stays here: the dialog would otherwise move it
            to the first field, and leaving that field would clear the server's field errors. The
            machine ignores a submit while one is under way too. */}
        <Button type="submit" loading={submitting} loadingText="Issuing">
          Submit
        </Button>
      </div>
    </form>
  );
}
