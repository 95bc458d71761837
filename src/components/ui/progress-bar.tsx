import { css } from '../../../styled-system/css';

/**
 * An indeterminate progress bar: a slim track with a sliding segment. `fixed` sits on the top edge
 * of the window (navigation); `absolute` on the top edge of the nearest positioned box (a list
 * refetching).
 */
export function ProgressBar({ label, position }: { label: string; position: 'fixed' | 'absolute' }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      className={css({
        top: '0',
        left: '0',
        right: '0',
        h: '3px',
        overflow: 'hidden',
        bg: 'brand.100',
        zIndex: 'progress',
        pointerEvents: 'none',
      })}
      style={{ position }}
    >
      <span
        className={css({
          display: 'block',
          h: 'full',
          w: '40%',
          bg: 'brand.600',
          animation: 'progressSlide 1.1s ease-in-out infinite',
        })}
      />
    </div>
  );
}
