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
});
