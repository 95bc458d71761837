import type { ReactNode } from 'react';
import { css } from '../../styled-system/css';

export interface DetailItem {
  label: string;
  value: ReactNode;
}

/** Label and value pairs of a record summary (a description list: screen readers pair them). */
export function DetailList({ items, columns = 2 }: { items: DetailItem[]; columns?: 1 | 2 | 3 }) {
  return (
    <dl
      className={css({
        display: 'grid',
        gap: '4',
        gridTemplateColumns: {
          base: '1fr',
          md: columns === 1 ? '1fr' : 'repeat(2, minmax(0, 1fr))',
          xl: columns === 3 ? 'repeat(3, minmax(0, 1fr))' : undefined,
        },
      })}
    >
      {items.map((item) => (
        <div key={item.label} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
          <dt className={css({ textStyle: 'caption', color: 'fg.muted' })}>{item.label}</dt>
          <dd className={css({ fontSize: 'sm', color: 'fg.default', wordBreak: 'break-word' })}>
            {item.value === '' || item.value === null || item.value === undefined ? '-' : item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A white card around a section of a detail screen. */
export function DetailCard({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <section
      {...(label ? { 'aria-label': label } : {})}
      className={css({
        layerStyle: 'card',
        p: { base: '5', md: '6' },
      })}
    >
      {children}
    </section>
  );
}
