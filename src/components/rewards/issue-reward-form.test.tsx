import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { IssueRewardBody, Reward } from '../../../contract/rewards';
import { rewardTypeKeys } from '../../api/rewards';
import { issueRewardMachine } from '../../machines/issue-reward.machine';
import { IssueRewardForm } from './issue-reward-form';

const reward = { id: 12, code: 'GC-NEW1' } as Reward;

function renderForm(issuedTo: number | null = 42, lists?: { types?: string[]; categories?: string[] }) {
  const issue = vi.fn(async (_: { body: IssueRewardBody; idempotencyKey: string }) => reward);
  const onIssued = vi.fn();
  const machine = issueRewardMachine.provide({
    actors: { issueReward: fromPromise(({ input }) => issue(input)) },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (lists?.types) queryClient.setQueryData(rewardTypeKeys.types(), lists.types);
  if (lists?.categories) queryClient.setQueryData(rewardTypeKeys.categories(), lists.categories);
  render(
    <QueryClientProvider client={queryClient}>
      <IssueRewardForm
        target={{ issuedTo, partnerId: 3, online: true }}
        onIssued={onIssued}
        machine={machine}
      />
    </QueryClientProvider>,
  );
  return { issue, onIssued };
}

describe('IssueRewardForm', () => {
  it('shows the product.md messages on an empty submit and sends nothing', async () => {
    const user = userEvent.setup();
    const { issue } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Reward type is required')).toBeInTheDocument();
    expect(screen.getByText('Promotional image is required')).toBeInTheDocument();
    expect(screen.getByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    expect(issue).not.toHaveBeenCalled();
  });

  it('issues a gift card with the default 2,000 and calls onIssued', async () => {
    const user = userEvent.setup();
    const { issue, onIssued } = renderForm();
    await user.selectOptions(screen.getByLabelText('Reward type'), 'GIFTCARD');
    expect(screen.getByLabelText('Issued amount (₦)')).toHaveValue('2000');
    expect(screen.queryByLabelText('Percentage discount (%)')).toBeNull();
    await user.type(screen.getByLabelText('Title'), 'Welcome gift');
    await user.type(screen.getByLabelText('Description'), 'Thanks');
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'promo.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Promotional image'), png);
    await waitFor(() => expect(screen.queryByText('Promotional image is required')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onIssued).toHaveBeenCalledWith(reward));
    const body = issue.mock.calls[0]?.[0].body;
    expect(body).toMatchObject({
      rewardType: 'GIFTCARD',
      issuedAmount: 2000,
      issuedTo: 42,
      title: 'Welcome gift',
    });
    expect(body?.promotionalImage).toBe('iVBORw==');
    expect(body).not.toHaveProperty('percentageDiscount');
  });

  it('a coupon shows the percentage (default 10) and checks it', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.selectOptions(screen.getByLabelText('Reward type'), 'COUPON');
    const percent = screen.getByLabelText('Percentage discount (%)');
    expect(percent).toHaveValue('10');
    await user.clear(percent);
    await user.type(percent, '0');
    await user.tab();
    expect(screen.getByText('Percentage Discount must be a positive number')).toBeInTheDocument();
  });

  const optionValues = (label: string) =>
    within(screen.getByLabelText(label))
      .getAllByRole('option')
      .map((o) => (o as HTMLOptionElement).value);

  it("offers the server's reward types and categories", () => {
    renderForm(42, { types: ['COUPON'], categories: ['DISCOUNTED_SUBSCRIPTION', 'SOMETHING_NEW'] });
    expect(optionValues('Reward type')).toEqual(['', 'COUPON']);
    expect(optionValues('Reward category (optional)')).toEqual(['', 'DISCOUNTED_SUBSCRIPTION']);
  });

  it('falls back to the fixed lists when the server lists are not there', async () => {
    renderForm();
    // No API client in this test: the queries fail, the fixed lists stay.
    await waitFor(() => expect(optionValues('Reward type')).toEqual(['', 'GIFTCARD', 'COUPON']));
    expect(optionValues('Reward category (optional)')).toEqual(['', 'GENERAL', 'DISCOUNTED_SUBSCRIPTION']);
  });
});
