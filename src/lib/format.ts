/** Display formats (docs/product.md#constants): Nigerian naira, en-NG counts, long month dates, 2-decimal percents. */

const countFormat = new Intl.NumberFormat('en-NG');
const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

const finite = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/** 1234567 → '1,234,567' */
export const formatCount = (value: number | null | undefined): string => countFormat.format(finite(value));

/** 12500 → '₦12,500.00': one formatter for the SPA and the server (contract/money.ts). */
export { formatNaira } from '../../contract/money';

/** 12.5 → '12.50%' (the value is already a percentage) */
export const formatPercent = (value: number | null | undefined): string => `${finite(value).toFixed(2)}%`;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** '2026-11-22' or an ISO timestamp → 'November 22, 2026'; '' for missing or invalid input. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  let date: Date;
  const dateOnly = typeof value === 'string' ? DATE_ONLY.exec(value) : null;
  if (dateOnly) date = new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]));
  else date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** 'Ada', 'Obi' → 'Ada Obi' */
export const fullName = (firstName?: string | null, lastName?: string | null): string =>
  [firstName, lastName].filter(Boolean).join(' ');

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The first grapheme of a word: a whole emoji (flags, skin tones, families) or a letter with its accents. */
const firstGrapheme = (word: string): string =>
  graphemes.segment(word)[Symbol.iterator]().next().value?.segment ?? '';

/** 'Ada Obi' → 'AO'; '👩🏽‍💻 Obi' → '👩🏽‍💻O': whole graphemes, never half an emoji. */
export const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => firstGrapheme(part).toUpperCase())
    .join('');

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const dayMonthFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const compactFormat = new Intl.NumberFormat('en-NG', { notation: 'compact', maximumFractionDigits: 1 });

/** An ISO timestamp → 'November 22, 2026, 3:04 PM' (the product.md date format plus the local time). */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const day = formatDate(value);
  if (!day || (typeof value === 'string' && DATE_ONLY.test(value))) return day;
  return `${day}, ${timeFormat.format(value instanceof Date ? value : new Date(value as string | number))}`;
}

/**
 * A chart axis's day: '2025-12-08' → '8 Dec' (the day as the server named it, whatever the browser's
 * time zone). Short on purpose: a 375 px wide chart; elsewhere dates read as formatDate.
 */
export const formatDayMonth = (isoDay: string): string =>
  dayMonthFormat.format(new Date(`${isoDay}T00:00:00Z`));

/** Compact axis figures so a 375 px wide chart keeps its labels short: 1500 → '1.5K', '₦2.4M'. */
export const formatCompact = (value: number, naira = false): string =>
  `${naira ? '₦' : ''}${compactFormat.format(finite(value))}`;

/** 'Internet, Streaming, Gaming' at 10 → 'Internet, …'; shorter text is returned as is. */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? '';
  return value.length > max ? `${value.slice(0, max).trimEnd()}…` : value;
}

/** Today in the browser's time zone as YYYY-MM-DD (what date inputs and date queries use). */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
