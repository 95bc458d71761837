import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ForbiddenState, isForbidden, NotAvailableOffline } from './forbidden-state';
import { LogoSpinner } from './logo-spinner';
import { isUnanswered, QueryErrorText } from './query-error-text';

/**
 * A query's states where its content goes, under a header the screen keeps: a spinner, the
 * forbidden state, the error, then the content drawn from the data.
 */
export function QueryBody<T>({
  query,
  loadingLabel,
  children,
}: {
  query: UseQueryResult<T>;
  loadingLabel: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LogoSpinner label={loadingLabel} />;
  if (isForbidden(query.error)) return <ForbiddenState />;
  if (isUnanswered(query.error))
    return <NotAvailableOffline heading="h2" onRetry={() => void query.refetch()} />;
  if (query.isError) return <QueryErrorText error={query.error} />;
  return children(query.data);
}
