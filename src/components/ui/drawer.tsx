import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import type { ReactElement, ReactNode } from 'react';
import { dialog } from '../../../styled-system/recipes';
import { CloseIcon } from '../icons';

export interface DrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens the drawer (rendered as the trigger, so focus returns to it). */
  trigger: ReactElement;
  /** Heading at the top of the panel, also its accessible name. */
  title: ReactNode;
  children: ReactNode;
}

/**
 * A modal panel from the left edge: Ark Dialog (focus trap, Escape, backdrop click, focus back to
 * the trigger, aria-modal) joined to the `dialog` slot recipe, placed at the start edge.
 */
export function Drawer({ open, onOpenChange, trigger, title, children }: DrawerProps) {
  const classes = dialog({ placement: 'start' });
  return (
    <ArkDialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      lazyMount
      unmountOnExit
    >
      <ArkDialog.Trigger asChild>{trigger}</ArkDialog.Trigger>
      <Portal>
        <ArkDialog.Backdrop className={classes.backdrop} />
        <ArkDialog.Positioner className={classes.positioner}>
          <ArkDialog.Content className={classes.content}>
            <ArkDialog.Title className={classes.title}>{title}</ArkDialog.Title>
            {children}
            <ArkDialog.CloseTrigger className={classes.closeTrigger} aria-label="Close menu">
              <CloseIcon />
            </ArkDialog.CloseTrigger>
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
