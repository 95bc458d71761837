import { describe, expect, it } from 'vitest';
import {
  formatCompact,
  formatCount,
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatNaira,
  formatPercent,
  fullName,
  initials,
} from './format';

describe('format', () => {
  it('formats counts with thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(Number.NaN)).toBe('0');
  });

  it('formats money in Nigerian naira', () => {
    expect(formatNaira(12500)).toBe('₦12,500.00');
    expect(formatNaira(1234567.5)).toBe('₦1,234,567.50');
    expect(formatNaira(0)).toBe('₦0.00');
  });

  it('one date format: a day, a day with its time, and the short day of a chart axis', () => {
    expect(formatDate('2026-11-22')).toBe('November 22, 2026');
    expect(formatDateTime(new Date(2026, 10, 22, 15, 4))).toBe('November 22, 2026, 3:04 PM');
    expect(formatDayMonth('2026-03-02')).toBe('2 Mar');
  });

  it('compact figures for chart axes, in naira or not', () => {
    expect(formatCompact(950)).toBe('950');
    expect(formatCompact(1_500)).toBe('1.5K');
    expect(formatCompact(2_400_000, true)).toBe('₦2.4M');
  });

  it('formats percentages with 2 decimals', () => {
    expect(formatPercent(12.5)).toBe('12.50%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(33.333)).toBe('33.33%');
  });

  it('formats dates as long month, day, year', () => {
    expect(formatDate('2026-11-22')).toBe('November 22, 2026');
    expect(formatDate(new Date(2026, 10, 22, 15, 30))).toBe('November 22, 2026');
    expect(formatDate('2026-01-05T12:00:00.000Z')).toBe('January 5, 2026');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(null)).toBe('');
  });

  it('builds names and initials', () => {
    expect(fullName('Ada', 'Obi')).toBe('Ada Obi');
    expect(fullName('Ada', null)).toBe('Ada');
    expect(initials('Ada Obi')).toBe('AO');
  });

  it('takes whole graphemes for initials: an emoji or an accented letter is never split', () => {
    expect(initials('👩🏽‍💻 Obi')).toBe('👩🏽‍💻O');
    expect(initials('🇳🇬 Club')).toBe('🇳🇬C');
    expect(initials('😀 😎')).toBe('😀😎');
    // 'e' + combining acute accent: one grapheme, two code units.
    expect(initials('e\u0301mile zola')).toBe('E\u0301Z');
  });
});

describe('truncate and todayIso', () => {
  it('cuts text longer than the limit and adds an ellipsis', async () => {
    const { truncate, todayIso } = await import('./format');
    expect(truncate('a'.repeat(61), 60)).toBe(`${'a'.repeat(60)}…`);
    expect(truncate('a'.repeat(60), 60)).toBe('a'.repeat(60));
    expect(truncate(null, 30)).toBe('');
    expect(todayIso(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
