import { createToaster, Toast, Toaster } from '@ark-ui/react/toast';
import { toast as toastRecipe } from '../../../styled-system/recipes';
import { CloseIcon } from '../icons';

/**
 * Loaded on demand through ./notify (toasts are raised with `notify`, never from here).
 * docs/product.md#errors and #constants: toasts top-right, 5000 ms, 300 ms collapse; errors are red. They sit below
 * the page header, so a toast never covers the header's actions (Edit, Block, Delete) for 5 seconds.
 * On a phone (below md) the page's title and header fill the top of the screen: there toasts sit at
 * the bottom, the full width less 1rem each side, and the page keeps room below its last part (a
 * form's submit button) so a toast never covers it (issue 32, decision 067).
 */
const PHONE = '(max-width: 47.99em)';
const placementNow = () =>
  typeof window !== 'undefined' && window.matchMedia?.(PHONE).matches ? 'bottom' : 'top-end';

/** How long a toast shows (docs/product.md#constants). */
export const TOAST_MS = 5000;

export const toaster = createToaster({
  placement: placementNow(),
  offsets: { top: '6rem', right: '1rem', bottom: '1rem', left: '1rem' },
  duration: TOAST_MS,
  removeDelay: 300,
  gap: 12,
  overlap: false,
  max: 5,
});

/** Places the toasts for the window's width now (a phone turned, a window resized): called before each toast. */
export function placeToasts() {
  toaster.attrs.placement = placementNow();
}

export function AppToaster() {
  const classes = toastRecipe();
  return (
    <Toaster toaster={toaster}>
      {(toast) => (
        <Toast.Root key={toast.id} className={classes.root}>
          <Toast.Title className={classes.title}>{toast.title}</Toast.Title>
          {toast.description ? (
            <Toast.Description className={classes.description}>{toast.description}</Toast.Description>
          ) : null}
          <Toast.CloseTrigger className={classes.closeTrigger} aria-label="Dismiss notification">
            <CloseIcon size={14} />
          </Toast.CloseTrigger>
        </Toast.Root>
      )}
    </Toaster>
  );
}
