/**
 * Eligibility for a partner's reward (docs/product.md#decided-rules), as plain functions; the routes aggregate
 * the spend in SQL and use these for the window, the verdict and the message.
 *
 * The window: D is a calendar day in Lagos (West Africa Time, UTC+1, no daylight saving). The window
 * is the 30 Lagos days ending with D, both ends included: [D-29 00:00, D 23:59:59.999] Lagos time,
 * i.e. `visit_date >= start AND visit_date < endExclusive` with endExclusive = D+1 00:00 Lagos.
 * A customer is eligible when their spend at the partner in the window is AT LEAST the partner's
 * minSpendToQualify (equal qualifies).
 */

import { formatNaira } from '../../contract/money';

export const WINDOW_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Lagos is UTC+1 all year. */
const LAGOS_OFFSET_MS = 60 * 60 * 1000;

/** The Lagos calendar day (YYYY-MM-DD) of an instant. */
export const lagosDate = (at: Date): string =>
  new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10);

/** 00:00 Lagos time of a day (YYYY-MM-DD) as an instant. */
export const lagosDayStart = (day: string): Date =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) - LAGOS_OFFSET_MS);

export type Window = {
  /** First instant inside: D-29 00:00 Lagos. */
  start: Date;
  /** First instant after: D+1 00:00 Lagos (the last one inside is D 23:59:59.999). */
  endExclusive: Date;
};

/** The 30-day window ending with the Lagos day D. */
export function eligibilityWindow(day: string): Window {
  const dayStart = lagosDayStart(day);
  return {
    start: new Date(dayStart.getTime() - (WINDOW_DAYS - 1) * DAY_MS),
    endExclusive: new Date(dayStart.getTime() + DAY_MS),
  };
}

export const inWindow = (w: Window, at: Date): boolean =>
  at.getTime() >= w.start.getTime() && at.getTime() < w.endExclusive.getTime();

/** Naira to whole kobo, so that comparisons never meet binary fractions. */
export const toKobo = (naira: number | string): number => Math.round(Number(naira) * 100);

/** The boundary qualifies: spend equal to the minimum is eligible. */
export const isEligible = (totalSpent: number | string, minSpendToQualify: number | string): boolean =>
  toKobo(totalSpent) >= toKobo(minSpendToQualify);

/** 'Spent ₦12,500.00 of ₦10,000.00' */
export const eligibilityMessage = (totalSpent: number | string, minSpendToQualify: number | string): string =>
  `Spent ${formatNaira(totalSpent)} of ${formatNaira(minSpendToQualify)}`;

export type Verdict = { isEligible: boolean; rewardType: 'GIFTCARD' | null; message: string };

/** What the eligible-users screens show for one customer's spend in the window. */
export function eligibilityVerdict(totalSpent: number | string, minSpendToQualify: number | string): Verdict {
  const eligible = isEligible(totalSpent, minSpendToQualify);
  return {
    isEligible: eligible,
    rewardType: eligible ? 'GIFTCARD' : null,
    message: eligibilityMessage(totalSpent, minSpendToQualify),
  };
}
