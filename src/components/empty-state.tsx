import { css } from '../../styled-system/css';
import { InboxIcon } from './icons';

export function EmptyState({ title, description }: { title: string; description?: string }) {
  return (
    <div
      className={css({
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
        borderStyle: 'dashed',
        borderColor: 'border.strong',
        color: 'fg.muted',
      })}
    >
      <InboxIcon size={36} />
      <p className={css({ fontWeight: 'semibold', color: 'fg.default' })}>{title}</p>
      {description ? <p className={css({ fontSize: 'sm', maxW: 'md' })}>{description}</p> : null}
    </div>
  );
}
