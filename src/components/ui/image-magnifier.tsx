import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { useState } from 'react';
import { css, cx } from '../../../styled-system/css';
import { dialog } from '../../../styled-system/recipes';
import { CloseIcon } from '../icons';

export interface ImageMagnifierProps {
  src: string;
  /** What the image shows, e.g. 'Receipt image'; also names the full-screen dialog. */
  alt: string;
  /** Classes of the thumbnail image. */
  thumbnailClassName?: string;
}

/**
 * A thumbnail that opens the image in a full-screen magnifier at 75% of the viewport
 * (docs/product.md#constants): an accessible dialog named by the image, closed by Escape, the close control or a
 * click outside the image. The `dialog` slot recipe, placed `full`.
 */
export function ImageMagnifier({ src, alt, thumbnailClassName }: ImageMagnifierProps) {
  const [open, setOpen] = useState(false);
  const classes = dialog({ placement: 'full' });
  return (
    <>
      <button
        type="button"
        aria-label={`Enlarge ${alt.toLowerCase()}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className={css({
          display: 'inline-flex',
          p: '0',
          layerStyle: 'outlined',
          overflow: 'hidden',
          cursor: 'zoom-in',
          _focusVisible: { outline: '2px solid', outlineColor: 'border.focus', outlineOffset: '2px' },
        })}
      >
        <img
          src={src}
          alt={alt}
          className={cx(css({ display: 'block', w: '40', h: '40', objectFit: 'cover' }), thumbnailClassName)}
        />
      </button>
      <ArkDialog.Root open={open} onOpenChange={(d) => setOpen(d.open)} lazyMount unmountOnExit>
        <Portal>
          <ArkDialog.Backdrop className={classes.backdrop} />
          <ArkDialog.Positioner className={classes.positioner}>
            <ArkDialog.Content
              aria-label={alt}
              data-testid="image-magnifier"
              className={classes.content}
              onClick={(event) => {
                if (event.target === event.currentTarget) setOpen(false);
              }}
            >
              <img
                src={src}
                alt={alt}
                className={css({
                  w: '75vw',
                  h: '75vh',
                  objectFit: 'contain',
                  cursor: 'default',
                  borderRadius: 'md',
                })}
              />
              <ArkDialog.CloseTrigger aria-label="Close" className={classes.closeTrigger}>
                <CloseIcon size={22} />
              </ArkDialog.CloseTrigger>
            </ArkDialog.Content>
          </ArkDialog.Positioner>
        </Portal>
      </ArkDialog.Root>
    </>
  );
}
