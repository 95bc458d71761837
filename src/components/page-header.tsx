import type { ReactNode } from 'react';
import { css } from '../../styled-system/css';
import { CacheAgeNotice } from './cache-age-notice';

export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: string;
  subtitle?: string;
  actions?: ReactNode;
}) {
  return (
    <header
      className={css({
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        flexWrap: 'wrap',
        gap: '4',
        mb: '6',
      })}
    >
      <div className={css({ minW: '0' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', color: 'fg.default' })}>{title}</h1>
        {subtitle ? <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>{subtitle}</p> : null}
        <CacheAgeNotice />
      </div>
      {actions}
    </header>
  );
}

/** The padded body of a dashboard screen. */
export function PageBody({ children }: { children: ReactNode }) {
  return (
    // On a phone, room below the last part (a form's submit button) to scroll it above the toasts,
    // which sit at the bottom there (decision 067).
    <div
      className={css({
        px: { base: '4', md: '8' },
        pt: '6',
        pb: { base: '28', md: '6' },
        maxW: '7xl',
        w: 'full',
      })}
    >
      {children}
    </div>
  );
}
