import type { ReactNode } from 'react';
import { css } from '../../styled-system/css';
import { TEXTS } from '../lib/texts';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';

export interface ConfirmDeletionProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending?: boolean;
  children?: ReactNode;
}

/** docs/product.md#screens: the 'Confirm Deletion' dialog with Delete and Cancel buttons. */
export function ConfirmDeletion({
  open,
  onOpenChange,
  onConfirm,
  pending = false,
  children,
}: ConfirmDeletionProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)} title="Confirm Deletion">
      <div className={css({ fontSize: 'sm', color: 'fg.muted' })}>{children ?? TEXTS.deleteConfirm()}</div>
      <div
        className={css({
          display: 'flex',
          justifyContent: 'flex-end',
          alignItems: 'center',
          gap: '2',
          mt: '6',
        })}
      >
        <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
          Cancel
        </Button>
        <Button variant="danger" loading={pending} loadingText="Deleting" onClick={onConfirm}>
          Delete
        </Button>
      </div>
    </Dialog>
  );
}
