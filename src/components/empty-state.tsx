import { css, cva } from '../../styled-system/css';
import { InboxIcon } from './icons';

/** The box of a screen's state (empty, not allowed, not found): one shape, dashed when empty. */
export const stateBox = cva({
  base: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '2',
    py: '16',
    px: '6',
    textAlign: 'center',
    bg: 'bg.surface',
    borderRadius: 'xl',
    borderWidth: '1px',
    borderColor: 'border.default',
  },
  variants: {
    empty: { true: { borderStyle: 'dashed', borderColor: 'border.strong', color: 'fg.muted' } },
  },
});

export function EmptyState({ title, description }: { title: string; description?: string }) {
  return (
    <div className={stateBox({ empty: true })}>
      <InboxIcon size={36} />
      <p className={css({ fontWeight: 'semibold', color: 'fg.default' })}>{title}</p>
      {description ? <p className={css({ fontSize: 'sm', maxW: 'md' })}>{description}</p> : null}
    </div>
  );
}
