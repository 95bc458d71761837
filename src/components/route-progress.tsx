import { useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ProgressBar } from './ui/progress-bar';

/** A navigation shorter than this shows nothing (no flash on cached screens). */
export const ROUTE_PROGRESS_DELAY_MS = 150;

/**
 * The top progress indicator: while the router is pending (a route's loader or beforeLoad still
 * running after a link was followed) for longer than a moment, a thin indeterminate bar runs
 * along the top edge of the window.
 */
export function RouteProgress() {
  const pending = useRouterState({ select: (s) => s.status === 'pending' || s.isLoading });
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!pending) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), ROUTE_PROGRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  if (!shown) return null;
  return <ProgressBar label="Loading page" position="fixed" />;
}
