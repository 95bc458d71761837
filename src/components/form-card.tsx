import type { ReactNode } from 'react';
import { css } from '../../styled-system/css';

/** The card a create or edit form sits in. */
export function FormCard({ children, label }: { children: ReactNode; label: string }) {
  return (
    <section
      aria-label={label}
      className={css({
        layerStyle: 'card',
        p: { base: '5', md: '6' },
        maxW: '3xl',
      })}
    >
      {children}
    </section>
  );
}

export const formGrid = css({
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
});

export const formActions = css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '6' });
