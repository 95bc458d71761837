import { type ErrorComponentProps, Link, useRouter } from '@tanstack/react-router';
import { css, cx } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { AuthShell } from './auth-shell';
import { Button } from './ui/button';

export const ERROR_SCREEN_TITLE = 'This page could not be shown';
export const ERROR_SCREEN_TEXT =
  'Something in the address or on our side went wrong. Try again, or start over.';
export const ERROR_SCREEN_HOME = 'Go to the start';

/**
 * The router's error screen (`defaultErrorComponent`), for whatever no route's own errorComponent
 * handles: branded like the public screens, with Try again and a way home; never the router's bare
 * 'Something went wrong!'.
 */
export function ErrorScreen({ reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <AuthShell heading={ERROR_SCREEN_TITLE}>
      <div
        role="alert"
        className={css({ display: 'flex', flexDirection: 'column', gap: '5', textAlign: 'center' })}
      >
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{ERROR_SCREEN_TEXT}</p>
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'center', flexWrap: 'wrap' })}>
          <Button
            variant="outline"
            onClick={() => {
              reset();
              void router.invalidate();
            }}
          >
            Try again
          </Button>
          {/* '/' is the sign-in screen; a signed-in user goes on to /dashboard from there. */}
          <Link to="/" reloadDocument className={cx(button({ variant: 'solid' }))}>
            {ERROR_SCREEN_HOME}
          </Link>
        </div>
      </div>
    </AuthShell>
  );
}
