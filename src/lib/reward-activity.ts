import type { RewardActivity, RewardWeek } from '../../contract/reward-activity';
import { formatCompact, formatCount, formatDate, formatDayMonth, formatNaira } from './format';

/**
 * The weekly reward activity (decision 018) shaped for the charts and their text twin: uPlot takes
 * columns (one x array, one array per series), the screen reader gets a sentence and a table.
 */
export type ActivityChartData = {
  /** 0 … 11, the x of every series (uPlot wants numbers; the axis prints `labels`). */
  x: number[];
  /** Short axis labels: '8 Dec'. */
  labels: string[];
  /** Table and tooltip labels: 'Week of December 8, 2025'. */
  weekLabels: string[];
  issuedCount: number[];
  redeemedCount: number[];
  issuedAmount: number[];
  redeemedAmount: number[];
  totals: Omit<RewardWeek, 'weekStart'>;
  /** No reward issued or redeemed in any of the weeks. */
  isEmpty: boolean;
  /** One sentence with the figures, for aria-describedby. */
  summary: string;
};

/** '2025-12-08' → '8 Dec' (the day as the server named it, whatever the browser's time zone). */
export const shortWeekLabel = (weekStart: string): string => formatDayMonth(weekStart);

/** '2025-12-08' → 'Week of December 8, 2025'. */
export const weekLabel = (weekStart: string): string => `Week of ${formatDate(weekStart)}`;

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export function shapeActivity(activity: RewardActivity): ActivityChartData {
  const weeks = activity.weeks;
  const column = (pick: (w: RewardWeek) => number) => weeks.map((w) => pick(w) || 0);
  const issuedCount = column((w) => w.issuedCount);
  const redeemedCount = column((w) => w.redeemedCount);
  const issuedAmount = column((w) => w.issuedAmount);
  const redeemedAmount = column((w) => w.redeemedAmount);
  const totals = {
    issuedCount: sum(issuedCount),
    redeemedCount: sum(redeemedCount),
    issuedAmount: sum(issuedAmount),
    redeemedAmount: sum(redeemedAmount),
  };
  const isEmpty = totals.issuedCount === 0 && totals.redeemedCount === 0;
  let summary = `No rewards were issued or redeemed in the last ${weeks.length} weeks.`;
  if (!isEmpty) {
    // The busiest week by rewards issued (the first of equals).
    const busiest = issuedCount.reduce((best, n, i) => (n > (issuedCount[best] ?? 0) ? i : best), 0);
    summary =
      `In the last ${weeks.length} weeks, ${formatCount(totals.issuedCount)} rewards were issued ` +
      `(${formatNaira(totals.issuedAmount)} in gift cards) and ${formatCount(totals.redeemedCount)} ` +
      `redemptions made (${formatNaira(totals.redeemedAmount)} from gift cards).` +
      (totals.issuedCount > 0
        ? ` Most issued: ${formatCount(issuedCount[busiest])} in the week of ${formatDate(weeks[busiest]!.weekStart)}.`
        : '');
  }
  return {
    x: weeks.map((_, i) => i),
    labels: weeks.map((w) => shortWeekLabel(w.weekStart)),
    weekLabels: weeks.map((w) => weekLabel(w.weekStart)),
    issuedCount,
    redeemedCount,
    issuedAmount,
    redeemedAmount,
    totals,
    isEmpty,
    summary,
  };
}

/** Compact axis figures (src/lib/format.ts formatCompact): 1500 → '1.5K', '₦2.4M'. */
export const compactFigure = formatCompact;
