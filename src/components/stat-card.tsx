import { css } from '../../styled-system/css';

export interface StatCardProps {
  title: string;
  value: string;
}

/** One figure. role=group named by its title, so tests and screen readers find it by name. */
export function StatCard({ title, value }: StatCardProps) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a figure card, not a form control set; role=group names it
    <div
      role="group"
      aria-label={title}
      className={css({
        h: 'statCard',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        px: '4',
        py: '3',
        layerStyle: 'card',
        borderRadius: 'lg',
        borderLeftWidth: '4px',
        borderLeftColor: 'brand.600',
        overflow: 'hidden',
      })}
    >
      {/* Two lines at most, never cut: the longest titles ('Discounted Subscription Redemption
          Rate') take two in a narrow card (issue 32). */}
      <span className={css({ fontSize: 'xs', fontWeight: 'medium', color: 'fg.muted', lineHeight: 'tight' })}>
        {title}
      </span>
      <span className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.default', lineClamp: 1 })}>
        {value}
      </span>
    </div>
  );
}
