import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EligibleUserDetail } from '../../../../../contract/visits';
import { EligibleUserView, NO_USER_DATA, NO_VISIT_HISTORY } from './eligible-user-screen';

const detail: EligibleUserDetail = {
  user: { id: 8, firstName: 'Ngozi', lastName: 'Adeyemi' },
  totalSpent: 12500,
  isEligible: true,
  rewardType: 'GIFTCARD',
  message: 'Spent ₦12,500.00 of ₦10,000.00',
  visitHistory: [],
  notCounted: { waiting: 0, waitingAmount: 0, rejected: 0, rejectedAmount: 0 },
};

const counted: EligibleUserDetail['visitHistory'][number]['review'] = {
  state: 'approved',
  flags: [],
  reason: null,
  reviewedBy: null,
  reviewedAt: null,
};

describe('eligible user detail', () => {
  it("says exactly 'No user data found.' when there is no user", () => {
    render(<EligibleUserView detail={null} />);
    expect(screen.getByText('No user data found.')).toBeInTheDocument();
    expect(NO_USER_DATA).toBe('No user data found.');
  });

  it("shows the figures and exactly 'No visit history available.' without visits", () => {
    render(<EligibleUserView detail={detail} />);
    expect(screen.getByRole('heading', { name: 'Ngozi Adeyemi' })).toBeInTheDocument();
    expect(screen.getByText('₦12,500.00')).toBeInTheDocument();
    expect(screen.getByText('Yes')).toBeInTheDocument();
    expect(screen.getByText('GIFTCARD')).toBeInTheDocument();
    expect(screen.getByText('Spent ₦12,500.00 of ₦10,000.00')).toBeInTheDocument();
    expect(screen.getByText('No visit history available.')).toBeInTheDocument();
    expect(NO_VISIT_HISTORY).toBe('No visit history available.');
  });

  it('lists each visit with date, total, attendant, receipt and items as name, quantity x price', () => {
    render(
      <EligibleUserView
        detail={{
          ...detail,
          isEligible: false,
          rewardType: null,
          visitHistory: [
            {
              id: 3,
              user: detail.user,
              attendantName: 'Bola',
              visitDate: '2026-03-01T12:00:00.000Z',
              totalAmount: 4500,
              partner: { id: 1, organizationName: 'Mama Put Kitchen' },
              imageUrl: '/api/v1/files/receipt',
              visitItems: [{ id: 1, name: 'Jollof rice', quantity: 3, price: 1500 }],
              review: counted,
            },
          ],
        }}
      />,
    );
    expect(screen.getByText('No')).toBeInTheDocument();
    expect(screen.queryByText(NO_VISIT_HISTORY)).not.toBeInTheDocument();
    const visit = screen.getByRole('region', { name: /^Visit on March 1, 2026$/ });
    expect(within(visit).getByText('₦4,500.00')).toBeInTheDocument();
    expect(within(visit).getByText('Bola')).toBeInTheDocument();
    const items = within(visit).getByRole('list', { name: 'Purchased items' });
    expect(items).toHaveTextContent('Jollof rice');
    expect(items).toHaveTextContent('3 x ₦1,500.00');
    expect(within(visit).getByRole('button', { name: 'Enlarge receipt image' })).toBeInTheDocument();
  });

  it('says which visits do not count: waiting for review or rejected, and why (decision 075)', () => {
    const visit = (id: number, review: EligibleUserDetail['visitHistory'][number]['review']) => ({
      id,
      user: detail.user,
      attendantName: 'Bola',
      visitDate: `2026-03-0${id}T12:00:00.000Z`,
      totalAmount: 60_000,
      partner: { id: 1, organizationName: 'Mama Put Kitchen' },
      imageUrl: null,
      visitItems: [],
      review,
    });
    render(
      <EligibleUserView
        detail={{
          ...detail,
          message: 'Spent ₦12,500.00 of ₦10,000.00; not counted: 1 visit (₦60,000.00) waiting for review',
          notCounted: { waiting: 1, waitingAmount: 60_000, rejected: 1, rejectedAmount: 60_000 },
          visitHistory: [
            visit(1, { ...counted, state: 'waiting', flags: ['amount_above'] }),
            visit(2, {
              ...counted,
              state: 'rejected',
              flags: ['receipt_reused'],
              reason: 'Same receipt as last week',
              reviewedBy: { id: 4, name: 'Ade Bello' },
              reviewedAt: '2026-03-02T10:00:00.000Z',
            }),
          ],
        }}
      />,
    );
    expect(
      screen.getByText(
        'Spent ₦12,500.00 of ₦10,000.00; not counted: 1 visit (₦60,000.00) waiting for review',
      ),
    ).toBeInTheDocument();
    const waiting = screen.getByRole('region', { name: /^Visit on March 1, 2026$/ });
    expect(waiting).toHaveTextContent('Waiting for review');
    expect(waiting).toHaveTextContent('Not counted');
    expect(waiting).toHaveTextContent("Amount above the partner's review threshold");
    const rejected = screen.getByRole('region', { name: /^Visit on March 2, 2026$/ });
    expect(rejected).toHaveTextContent('Rejected');
    expect(rejected).toHaveTextContent('Receipt image already sent with an earlier visit');
    expect(rejected).toHaveTextContent('Reason: Same receipt as last week');
  });
});
