import { useEffect, useState } from 'react';
import { css } from '../../styled-system/css';
import { formatDateTime } from '../lib/format';
import { useSavedDataSince } from '../lib/saved-data';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How old saved data is, in words: 'less than a minute ago', '5 minutes ago', '2 days ago'. */
export function ageInWords(since: number, now: number): string {
  const age = Math.max(0, now - since);
  if (age < MINUTE) return 'less than a minute ago';
  if (age < HOUR) return relative.format(-Math.floor(age / MINUTE), 'minute');
  if (age < DAY) return relative.format(-Math.floor(age / HOUR), 'hour');
  return relative.format(-Math.floor(age / DAY), 'day');
}

export const savedDataText = (since: number, now: number) =>
  `Showing saved data from ${ageInWords(since, now)}`;

/**
 * Near a screen's header: says when what the screen shows is saved data (from IndexedDB, or kept
 * while the network is gone) and how old it is. Renders nothing while the data is fresh.
 */
export function CacheAgeNotice() {
  const since = useSavedDataSince();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [since]);
  if (since === null) return null;
  return (
    <p
      role="status"
      title={`Saved ${formatDateTime(since)}`}
      className={css({
        display: 'inline-flex',
        mt: '2',
        px: '2',
        py: '0.5',
        borderRadius: 'sm',
        fontSize: 'xs',
        color: 'amber.900',
        bg: 'amber.50',
        borderWidth: '1px',
        borderColor: 'amber.200',
      })}
    >
      {savedDataText(since, now)}
    </p>
  );
}
