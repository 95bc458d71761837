import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { css } from '../../styled-system/css';
import { ApiError } from '../api/client';
import { ForbiddenError, NotFoundError } from '../lib/permissions';
import { stateBox } from './empty-state';
import { PageBody } from './page-header';
import { isUnanswered, NOT_AVAILABLE_OFFLINE, QueryErrorText } from './query-error-text';
import { Button } from './ui/button';

export const FORBIDDEN_TITLE = 'Not allowed';
export const FORBIDDEN_TEXT = "You don't have permission to view this page.";
/** What the person can do about it: a permission their role can be given, or nothing but a Super Admin. */
export const FORBIDDEN_ASK = 'Ask an administrator to give your role the permission.';
export const FORBIDDEN_SUPER_ADMIN = 'Only a Super Admin can open this page.';

/** True for a missing permission: the route guard's ForbiddenError or an API 403. */
export const isForbidden = (error: unknown): boolean =>
  error instanceof ForbiddenError || (error instanceof ApiError && error.status === 403);

const box = stateBox();
const stateTitle = css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.default' });

/** The clear 'not allowed' state of a screen the signed-in user may not use. */
export function ForbiddenState({ superAdminOnly = false }: { superAdminOnly?: boolean }) {
  return (
    <section aria-labelledby="forbidden-title" className={box}>
      <LockIcon />
      <h1 id="forbidden-title" className={stateTitle}>
        {FORBIDDEN_TITLE}
      </h1>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', maxW: 'md' })}>{FORBIDDEN_TEXT}</p>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', maxW: 'md' })}>
        {superAdminOnly ? FORBIDDEN_SUPER_ADMIN : FORBIDDEN_ASK}
      </p>
    </section>
  );
}

/** A route's errorComponent: the 'not allowed' state for a missing permission, else the error text. */
export function RouteErrorState({ error }: ErrorComponentProps) {
  return (
    <PageBody>
      {isForbidden(error) ? (
        <ForbiddenState superAdminOnly={error instanceof ForbiddenError && error.superAdminOnly} />
      ) : error instanceof NotFoundError ? (
        <NotFoundState text={error.message} />
      ) : isUnanswered(error) ? (
        <NotAvailableOffline />
      ) : (
        <QueryErrorText error={error} />
      )}
    </PageBody>
  );
}

export const NOT_FOUND_TEXT = 'It does not exist, or it is not yours to open.';

/** 'Partner not found': a page the user may not know exists (no name, no data of it). */
export function NotFoundState({ text }: { text: string }) {
  return (
    <section aria-labelledby="not-found-title" className={box}>
      <h1 id="not-found-title" className={stateTitle}>
        {text}
      </h1>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', maxW: 'md' })}>{NOT_FOUND_TEXT}</p>
    </section>
  );
}

/**
 * Issue 17, defect 7: a screen never opened before, with no network, says so (instead of a spinner
 * that never ends) and offers Retry, which loads the screen again.
 */
export function NotAvailableOffline({
  onRetry,
  heading: Heading = 'h1',
}: {
  /** Retry the screen's query (default: load the route again). */
  onRetry?: () => void;
  /** 'h2' under a header that has the page's h1 (a detail screen's title and Back). */
  heading?: 'h1' | 'h2';
}) {
  const router = useRouter();
  return (
    <section
      aria-labelledby="offline-title"
      className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '16' })}
    >
      <Heading
        id="offline-title"
        className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.default' })}
      >
        {NOT_AVAILABLE_OFFLINE}
      </Heading>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', maxW: 'md', textAlign: 'center' })}>
        This screen has not been opened on this device before, and the server cannot be reached.
      </p>
      <Button onClick={() => (onRetry ? onRetry() : void router.invalidate())}>Retry</Button>
    </section>
  );
}

function LockIcon() {
  return (
    <svg
      aria-hidden="true"
      width="40"
      height="40"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      className={css({ color: 'brand.700', mb: '2' })}
    >
      <rect x="4" y="10" width="16" height="11" rx="2" />
      <path d="M8 10V7a4 4 0 0 1 8 0v3" />
    </svg>
  );
}
