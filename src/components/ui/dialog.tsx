import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import type { ReactNode } from 'react';
import { cx } from '../../../styled-system/css';
import { dialog } from '../../../styled-system/recipes';
import { CloseIcon } from '../icons';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Optional heading, also the dialog's accessible name. */
  title?: ReactNode;
  /** Accessible name when there is no visible title. */
  label?: string;
  /** Show the close control (default true). */
  closable?: boolean;
  /** Extra classes for the content box (e.g. a wider table modal). */
  contentClassName?: string;
  children: ReactNode;
}

/** The generic dialog (docs/product.md#screens): 30rem from md up, full width on small screens. */
export function Dialog({
  open,
  onOpenChange,
  title,
  label,
  closable = true,
  contentClassName,
  children,
}: DialogProps) {
  const classes = dialog();
  return (
    <ArkDialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <ArkDialog.Backdrop className={classes.backdrop} />
        <ArkDialog.Positioner className={classes.positioner}>
          <ArkDialog.Content
            className={cx(classes.content, contentClassName)}
            aria-label={title ? undefined : label}
          >
            {title ? <ArkDialog.Title className={classes.title}>{title}</ArkDialog.Title> : null}
            {children}
            {closable ? (
              <ArkDialog.CloseTrigger className={classes.closeTrigger} aria-label="Close">
                <CloseIcon />
              </ArkDialog.CloseTrigger>
            ) : null}
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
