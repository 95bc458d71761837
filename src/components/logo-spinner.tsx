import { css } from '../../styled-system/css';
import { LogoMark } from './icons';

/** The loading state of a screen: the club mark inside a spinning ring. */
export function LogoSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div
      role="status"
      aria-label={label}
      className={css({ display: 'flex', alignItems: 'center', justifyContent: 'center', py: '20' })}
    >
      <div className={css({ position: 'relative', w: '16', h: '16', color: 'brand.700' })}>
        <span
          className={css({
            position: 'absolute',
            inset: '0',
            borderRadius: 'full',
            borderWidth: '3px',
            borderColor: 'brand.100',
            borderTopColor: 'brand.600',
            animation: 'spin 0.9s linear infinite',
          })}
        />
        <span className={css({ position: 'absolute', inset: '3', display: 'flex' })}>
          <LogoMark size={40} />
        </span>
      </div>
    </div>
  );
}
