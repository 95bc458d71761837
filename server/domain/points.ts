/**
 * Points (docs/product.md#decided-rules): 1 point per ₦100 spent at a partner. Decided
 * (docs/decisions/005-partner-queries.md): points are earned PER VISIT, rounded down, so a visit's
 * points never change after it is recorded (₦250 earns 2; two visits of ₦150 earn 1 + 1 = 2, not 3).
 * A reward issued by points records `points_claimed`; unclaimed = earned - claimed, never below 0.
 * The triggers of migration 0021 (customer_points, decision 069) spell the same rule in SQL:
 * floor(total_amount / 100) per visit.
 */

export const NAIRA_PER_POINT = 100;

/** Points one visit earns. */
export const pointsForVisit = (totalAmount: number | string): number => {
  const kobo = Math.round(Number(totalAmount) * 100);
  return kobo > 0 ? Math.floor(kobo / (NAIRA_PER_POINT * 100)) : 0;
};

/** Points earned by a set of visits (each rounded down on its own). */
export const pointsEarned = (visitTotals: readonly (number | string)[]): number =>
  visitTotals.reduce<number>((sum, t) => sum + pointsForVisit(t), 0);

export const unclaimedPoints = (earned: number, claimed: number): number => Math.max(0, earned - claimed);
