import type { UseQueryResult } from '@tanstack/react-query';
import { Component, lazy, type ReactNode, Suspense, useId, useMemo } from 'react';
import type { RewardActivity } from '../../../contract/reward-activity';
import { css } from '../../../styled-system/css';
import { formatCount, formatNaira } from '../../lib/format';
import { type ActivityChartData, shapeActivity } from '../../lib/reward-activity';
import { QueryErrorText } from '../query-error-text';
import { StatCard } from '../stat-card';

/** uPlot and the chart load only when a screen shows this panel (decision 018). */
const ActivityChart = lazy(() => import('./activity-chart'));

export const ACTIVITY_TITLE = 'Rewards in the last 12 weeks';
export const ACTIVITY_EMPTY = 'No rewards were issued or redeemed in the last 12 weeks.';
export const OUTSTANDING_TITLE = 'Outstanding Gift-card Balance';

const CHART_HEIGHT = 220;

const panel = css({
  layerStyle: 'card',
  borderRadius: 'lg',
  p: { base: '3', md: '5' },
  minW: '0',
});
const heading = css({ fontSize: 'lg', fontWeight: 'semibold', color: 'fg.default', mb: '3' });
const figureTitle = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default', mb: '2' });
const chartSlot = css({ minH: '220px', display: 'flex', alignItems: 'center', justifyContent: 'center' });
const muted = css({ fontSize: 'sm', color: 'fg.muted' });

/** A chunk that cannot load (offline before it was ever cached) leaves the figures in text. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? (
      <p className={muted}>The chart could not be drawn; the figures are in the table below.</p>
    ) : (
      this.props.children
    );
  }
}

/** The two charts: the counts, and the gift-card value in naira. */
const CHARTS = [
  {
    title: 'Rewards issued and redeemed per week',
    issued: 'issuedCount',
    redeemed: 'redeemedCount',
    issuedLabel: 'Issued',
    redeemedLabel: 'Redeemed',
    naira: false,
  },
  {
    title: 'Gift-card value issued and redeemed per week (₦)',
    issued: 'issuedAmount',
    redeemed: 'redeemedAmount',
    issuedLabel: 'Issued (₦)',
    redeemedLabel: 'Redeemed (₦)',
    naira: true,
  },
] as const;

function ChartFigure({
  chart,
  ...props
}: {
  chart: (typeof CHARTS)[number];
  describedBy: string;
  data: ActivityChartData;
}) {
  const id = useId();
  return (
    <figure
      aria-labelledby={`${id}-title`}
      aria-describedby={props.describedBy}
      className={css({ minW: '0' })}
    >
      <figcaption id={`${id}-title`} className={figureTitle}>
        {chart.title}
      </figcaption>
      <ChartBoundary>
        <Suspense
          fallback={
            <div className={chartSlot}>
              <span className={muted}>Drawing chart…</span>
            </div>
          }
        >
          <ActivityChart
            labels={props.data.labels}
            weekLabels={props.data.weekLabels}
            issued={props.data[chart.issued]}
            redeemed={props.data[chart.redeemed]}
            issuedLabel={chart.issuedLabel}
            redeemedLabel={chart.redeemedLabel}
            naira={chart.naira}
            height={CHART_HEIGHT}
          />
        </Suspense>
      </ChartBoundary>
    </figure>
  );
}

/** The figures of the charts as a table, for screen readers (visually hidden). */
function ActivityTable({ data }: { data: ActivityChartData }) {
  return (
    // The wrapper hides it: a table keeps its content width whatever width it is given.
    <div className={css({ srOnly: true })}>
      <table>
        <caption>Rewards issued and redeemed per week, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Week</th>
            <th scope="col">Rewards issued</th>
            <th scope="col">Gift-card value issued</th>
            <th scope="col">Redemptions</th>
            <th scope="col">Gift-card value redeemed</th>
          </tr>
        </thead>
        <tbody>
          {data.weekLabels.map((week, i) => (
            <tr key={week}>
              <th scope="row">{week}</th>
              <td>{formatCount(data.issuedCount[i])}</td>
              <td>{formatNaira(data.issuedAmount[i])}</td>
              <td>{formatCount(data.redeemedCount[i])}</td>
              <td>{formatNaira(data.redeemedAmount[i])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The dashboard home's and the partner Analytics tab's charts: rewards issued and redeemed per week
 * for the last 12 weeks (counts, and gift-card naira) and the outstanding gift-card balance, with
 * loading, empty and error states. The query persists like every other (decision 002), so offline the
 * last figures seen are drawn from IndexedDB.
 */
export function RewardActivityPanel({ query }: { query: UseQueryResult<RewardActivity> }) {
  const id = useId();
  const data = useMemo(() => (query.data ? shapeActivity(query.data) : null), [query.data]);
  return (
    <section aria-labelledby={`${id}-heading`} className={css({ mb: '8' })} data-testid="reward-activity">
      <h2 id={`${id}-heading`} className={heading}>
        {ACTIVITY_TITLE}
      </h2>
      {query.isPending ? (
        <div role="status" className={`${panel} ${chartSlot}`}>
          <span className={muted}>Loading charts…</span>
        </div>
      ) : !data || !query.data ? (
        <QueryErrorText error={query.error} look="banner" />
      ) : (
        <div className={css({ display: 'grid', gap: '4' })}>
          <div
            className={css({
              display: 'grid',
              gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
              gap: '4',
            })}
          >
            <StatCard title={OUTSTANDING_TITLE} value={formatNaira(query.data.outstandingGiftcardBalance)} />
            <StatCard
              title="Gift Cards With a Balance"
              value={formatCount(query.data.outstandingGiftcardCount)}
            />
          </div>
          {data.isEmpty ? (
            <p className={`${panel} ${muted}`}>{ACTIVITY_EMPTY}</p>
          ) : (
            <div
              className={css({
                display: 'grid',
                gridTemplateColumns: { base: '1fr', xl: 'repeat(2, minmax(0, 1fr))' },
                gap: '4',
              })}
            >
              <p id={`${id}-summary`} className={css({ srOnly: true })}>
                {data.summary}
              </p>
              {CHARTS.map((chart) => (
                <div key={chart.issued} className={panel}>
                  <ChartFigure chart={chart} describedBy={`${id}-summary`} data={data} />
                </div>
              ))}
              <ActivityTable data={data} />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
