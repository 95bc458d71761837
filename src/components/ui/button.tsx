import { ark, type HTMLArkProps } from '@ark-ui/react/factory';
import { cx } from '../../../styled-system/css';
import { type ButtonVariantProps, button } from '../../../styled-system/recipes';
import { Spinner } from './spinner';

export type ButtonProps = HTMLArkProps<'button'> &
  ButtonVariantProps & {
    /**
     * The action this button started is running (a mutation, a sign-in): the button is busy and
     * disabled, its label gives way to a spinner (the button keeps its width) announced as
     * `loadingText`. The one way a screen shows that a button's work is under way. Disabled by
     * aria-disabled, not the attribute, so a focused button keeps focus (a dialog would otherwise
     * move it); clicks and form submits through it are swallowed meanwhile.
     */
    loading?: boolean | undefined;
    /** What the spinner announces while loading, e.g. 'Saving partner' (default 'Loading'). */
    loadingText?: string | undefined;
  };

export function Button({
  variant,
  size,
  fullWidth,
  className,
  type = 'button',
  loading = false,
  loadingText = 'Loading',
  disabled,
  children,
  onClick,
  ...props
}: ButtonProps) {
  return (
    <ark.button
      type={type}
      className={cx(button({ variant, size, fullWidth }), className)}
      disabled={disabled}
      aria-disabled={loading || undefined}
      aria-busy={loading || undefined}
      data-loading={loading || undefined}
      onClick={(event) => {
        if (loading) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      {...props}
    >
      {loading ? (
        <>
          <span data-part="spinner">
            <Spinner size="sm" label={loadingText} />
          </span>
          <span data-part="label" aria-hidden="true">
            {children}
          </span>
        </>
      ) : (
        children
      )}
    </ark.button>
  );
}
