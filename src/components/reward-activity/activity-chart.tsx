import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { css } from '../../../styled-system/css';
import { token } from '../../../styled-system/tokens';
import { compactFigure } from '../../lib/reward-activity';

/**
 * One weekly bar chart drawn by uPlot (decision 018: ~22 KB gzip, canvas, no dependencies). This
 * module is only ever imported lazily (reward-activity-panel.tsx), so the library loads with the
 * dashboard home and the partner Analytics tab, never with the sign-in screen. The canvas is hidden
 * from screen readers: the panel gives its figures as a sentence and a table.
 */
export type ActivityChartProps = {
  /** Short axis labels, one per week. */
  labels: string[];
  /** Long labels for the legend while hovering ('Week of …'). */
  weekLabels: string[];
  issued: number[];
  redeemed: number[];
  issuedLabel: string;
  redeemedLabel: string;
  /** Axis and legend figures in naira. */
  naira?: boolean;
  height?: number;
};

const ISSUED = token('colors.brand.600');
const REDEEMED = token('colors.amber.600');
const GRID = token('colors.slate.200');
const AXIS = token('colors.slate.600');

const frame = css({
  w: 'full',
  minW: '0',
  '& .u-legend': { fontSize: 'xs', color: 'fg.default' },
  '& .u-legend .u-marker': { borderRadius: 'sm' },
});

export default function ActivityChart({
  labels,
  weekLabels,
  issued,
  redeemed,
  issuedLabel,
  redeemedLabel,
  naira = false,
  height = 220,
}: ActivityChartProps) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const n = labels.length;
    const fmt = (v: number | null) => (v === null ? '' : compactFigure(v, naira));
    const bars = (align: -1 | 1) => uPlot.paths.bars?.({ size: [0.4, 28], align });
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 200),
      height,
      scales: { x: { time: false, range: () => [-0.5, n - 0.5] } },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      legend: { live: true },
      axes: [
        {
          stroke: AXIS,
          grid: { show: false },
          ticks: { show: false },
          // Whole weeks only; uPlot leaves out labels that would overlap on a narrow screen.
          incrs: [1, 2, 3, 4, 6, 12],
          space: 44,
          values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
        },
        {
          stroke: AXIS,
          grid: { stroke: GRID, width: 1 },
          ticks: { show: false },
          size: naira ? 56 : 40,
          values: (_u, splits) => splits.map((v) => fmt(v)),
        },
      ],
      series: [
        { label: 'Week', value: (_u, i) => (i === null ? '' : (weekLabels[i] ?? '')) },
        {
          label: issuedLabel,
          stroke: ISSUED,
          fill: ISSUED,
          width: 0,
          paths: bars(-1),
          points: { show: false },
          value: (_u, v) => fmt(v),
        },
        {
          label: redeemedLabel,
          stroke: REDEEMED,
          fill: REDEEMED,
          width: 0,
          paths: bars(1),
          points: { show: false },
          value: (_u, v) => fmt(v),
        },
      ],
    };
    const x = labels.map((_, i) => i);
    const chart = new uPlot(opts, [x, issued, redeemed], el);
    const resize = new ResizeObserver(() => {
      const width = Math.max(el.clientWidth, 200);
      if (width !== chart.width) chart.setSize({ width, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [labels, weekLabels, issued, redeemed, issuedLabel, redeemedLabel, naira, height]);

  return <div ref={host} className={frame} aria-hidden="true" data-testid="activity-chart" />;
}
