import { type QueryKey, type UseQueryResult, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { AccountStatus } from '../../contract/list';
import { css, cx } from '../../styled-system/css';
import { statsKeys } from '../api/stats';
import { errorSentence } from '../lib/error-message';
import { useConfirmedDeletion } from './confirmed-deletion';
import { ForbiddenState, isForbidden, NotAvailableOffline } from './forbidden-state';
import { LogoSpinner } from './logo-spinner';
import { PageBody, PageHeader } from './page-header';
import { isUnanswered, QueryErrorText } from './query-error-text';
import { Button } from './ui/button';
import { notify } from './ui/notify';

/**
 * The parts a detail screen is made of (docs/how-to.md): the record's query with its loading,
 * forbidden and error states (`DetailQueryScreen`, or `QueryBody` (query-body.tsx) under a header of the screen's own), the header with Back, title, subtitle and
 * actions (`DetailHeader`), the Block/Unblock, Edit, Delete actions of an account
 * (`AccountActions`, `useAccountActions`) and the picture or its placeholder (`DetailImage`).
 */

/** The record's query: a spinner, the forbidden state, or an error under a header with Back. */
export function DetailQueryScreen<T>({
  query,
  title,
  loadingLabel,
  onBack,
  children,
}: {
  query: UseQueryResult<T>;
  /** The header's title while the record cannot be shown ('Client'). */
  title: string;
  loadingLabel: string;
  onBack: () => void;
  children: (record: T) => ReactNode;
}) {
  return (
    <PageBody>
      {query.isPending ? (
        <LogoSpinner label={loadingLabel} />
      ) : isForbidden(query.error) ? (
        <ForbiddenState />
      ) : query.isError ? (
        <>
          <DetailHeader title={title} onBack={onBack} />
          {/* Never opened on this device and no network: say so and offer Retry (issue 32 item 8). */}
          {isUnanswered(query.error) ? (
            <NotAvailableOffline heading="h2" onRetry={() => void query.refetch()} />
          ) : (
            <QueryErrorText error={query.error} />
          )}
        </>
      ) : (
        children(query.data)
      )}
    </PageBody>
  );
}

/** The header of a detail screen: title, subtitle, Back (when given) and the record's actions. */
export function DetailHeader({
  title,
  subtitle,
  onBack,
  children,
}: {
  title: string;
  subtitle?: string;
  /** Back to the list; none where the screen is the user's home (a partner's workspace). */
  onBack?: (() => void) | undefined;
  /** The record's actions, after Back. */
  children?: ReactNode;
}) {
  return (
    <PageHeader
      title={title}
      {...(subtitle ? { subtitle } : {})}
      actions={
        onBack || children ? (
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', justifyContent: 'flex-end' })}>
            {onBack ? (
              <Button variant="outline" onClick={onBack}>
                Back
              </Button>
            ) : null}
            {children}
          </div>
        ) : null
      }
    />
  );
}

/** Block/Unblock and Edit (with the update permission), Delete (with the delete permission). */
export function AccountActions({
  status,
  canUpdate,
  canDelete,
  onEdit,
  onDelete,
}: {
  status: ReturnType<typeof useAccountActions>['status'];
  canUpdate: boolean;
  canDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <>
      {canUpdate ? (
        <>
          <Button
            variant="outline"
            loading={status.pending}
            loadingText="Changing status"
            onClick={status.toggle}
          >
            {status.blocked ? 'Unblock' : 'Block'}
          </Button>
          <Button variant="outline" onClick={onEdit}>
            Edit
          </Button>
        </>
      ) : null}
      {canDelete ? (
        <Button variant="danger" onClick={onDelete}>
          Delete
        </Button>
      ) : null}
    </>
  );
}

/**
 * Blocking, unblocking and deleting an account on its detail screen (a client, a partner): the
 * server's message as a toast, the lists refreshed; a deletion is confirmed first, then leaves for
 * the list before it forgets the record, so nothing refetches the deleted account.
 */
export function useAccountActions({
  account,
  setStatus,
  remove,
  messages,
  keys,
  toList,
}: {
  account: { id: number; accountStatus: AccountStatus };
  setStatus: (id: number, next: AccountStatus) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  /** The toasts (the server's words) and the deletion's question. */
  messages: { blocked: string; unblocked: string; deleted: string; deleteConfirm: ReactNode };
  /** The record's query keys: all of its kind, and the one record. */
  keys: { all: QueryKey; detail: (id: number) => QueryKey };
  toList: () => Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (next: AccountStatus) => setStatus(account.id, next),
    onSuccess: (_answer, next) => {
      notify.success(next === 'BLOCKED' ? messages.blocked : messages.unblocked);
      void queryClient.invalidateQueries({ queryKey: keys.all });
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const deletion = useConfirmedDeletion({
    remove: () => remove(account.id),
    deleted: messages.deleted,
    question: () => messages.deleteConfirm,
    invalidate: [keys.all, statsKeys.all],
    onDeleted: async () => {
      await toList();
      queryClient.removeQueries({ queryKey: keys.detail(account.id) });
    },
  });
  const blocked = account.accountStatus === 'BLOCKED';
  const status = {
    blocked,
    pending: mutation.isPending,
    toggle: () => mutation.mutate(blocked ? 'ACTIVE' : 'BLOCKED'),
  };
  return { status, deletion };
}

const placeholder = css({
  bg: 'bg.subtle',
  color: 'fg.subtle',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
});
const shapes = {
  /** A person: a round picture. */
  round: css({ w: '40', h: '40', objectFit: 'cover', borderRadius: 'full' }),
  /** A place: a 4:3 cover across its column. */
  cover: css({ w: 'full', aspectRatio: '4/3', objectFit: 'cover', borderRadius: 'lg' }),
};

/** The record's picture, or a placeholder with an icon and its own accessible name. */
export function DetailImage({
  src,
  alt,
  emptyLabel,
  icon,
  shape,
}: {
  src: string | null | undefined;
  alt: string;
  emptyLabel: string;
  icon: ReactNode;
  shape: keyof typeof shapes;
}) {
  if (src) return <img src={src} alt={alt} className={shapes[shape]} />;
  return (
    <div role="img" aria-label={emptyLabel} className={cx(shapes[shape], placeholder)}>
      {icon}
    </div>
  );
}
