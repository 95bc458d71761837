import { css } from '../../styled-system/css';
import { appUpdate, useUpdateAvailable } from '../lib/app-update';
import { Button } from './ui/button';

export const UPDATE_TEXT = 'A new version is available.';

/**
 * Offers a newly deployed version without interrupting: a small card in a corner; the console
 * switches only when the user presses Reload (an unsaved form stays as it is until then).
 */
export function UpdatePrompt() {
  const available = useUpdateAvailable();
  if (!available) return null;
  return (
    <section
      aria-label="Update"
      className={css({
        position: 'fixed',
        bottom: '4',
        left: '4',
        zIndex: 'banner',
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        px: '4',
        py: '3',
        maxW: 'calc(100vw - 2rem)',
        layerStyle: 'popover',
        borderRadius: 'md',
        color: 'fg.default',
        fontSize: 'sm',
      })}
    >
      <p role="status">{UPDATE_TEXT}</p>
      <Button size="sm" onClick={() => void appUpdate.reload()}>
        Reload
      </Button>
      <Button size="sm" variant="ghost" onClick={() => appUpdate.dismiss()}>
        Later
      </Button>
    </section>
  );
}
