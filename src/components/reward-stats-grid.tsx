import type { RewardStats } from '../../contract/stats';
import { css } from '../../styled-system/css';
import { formatCount, formatNaira, formatPercent } from '../lib/format';
import { StatCard } from './stat-card';

export type StatCardDef<T> = { title: string; value: (stats: T) => string };

/** docs/product.md#screens, in order: the club's reward figures, and one partner's analytics. */
export const REWARD_CARDS: StatCardDef<RewardStats>[] = [
  { title: 'Total Giftcards Issued', value: (s) => formatCount(s.totalIssuedGiftcardsCount) },
  { title: 'Total Giftcards Amount', value: (s) => formatNaira(s.totalIssuedGiftcardsAmount) },
  { title: 'Total Redeemed Giftcards', value: (s) => formatNaira(s.totalRedeemedIssuedGiftcards) },
  { title: 'Total Coupons Issued', value: (s) => formatCount(s.totalIssuedCouponsCount) },
  { title: 'Total Coupons Redeemed', value: (s) => formatCount(s.totalRedeemedCouponsCount) },
  { title: 'Average Coupon Discount (%)', value: (s) => formatPercent(s.averageCouponDiscount) },
  { title: 'Coupon Redemption Rate', value: (s) => formatPercent(s.couponRedemptionRate) },
  {
    title: 'Discounted Subscriptions Issued',
    value: (s) => formatCount(s.totalIssuedDiscountedSubscriptions),
  },
  {
    title: 'Avg Discounted Subscription (%)',
    value: (s) => formatPercent(s.averageDiscountedSubscriptionPercentage),
  },
  {
    title: 'Discounted Subscriptions Redeemed',
    value: (s) => formatCount(s.totalRedeemedDiscountedSubscriptions),
  },
  {
    title: 'Discounted Subscription Redemption Rate',
    value: (s) => formatPercent(s.discountedSubscriptionRedemptionRate),
  },
];

export const statGrid = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' },
  gap: '4',
});

/** A grid of stat cards (role=group, named by title) for one set of figures. */
export function StatGrid<T>({ cards, stats }: { cards: StatCardDef<T>[]; stats: T }) {
  return (
    <div className={statGrid}>
      {cards.map((card) => (
        <StatCard key={card.title} title={card.title} value={card.value(stats)} />
      ))}
    </div>
  );
}
