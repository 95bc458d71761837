import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { CLUB_KEY_SCOPES, type ClubKey, type ClubKeyScope } from '../../../../../contract/customer-sync';
import { css } from '../../../../../styled-system/css';
import { clubKeyKeys, clubKeysQueryOptions, createClubKey, revokeClubKey } from '../../../../api/club-keys';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { SecretCreateDialog } from '../../../../components/secret-once';
import { Badge } from '../../../../components/ui/badge';
import { Button } from '../../../../components/ui/button';
import { CheckboxGroup } from '../../../../components/ui/checkbox';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { authErrorMessage } from '../../../../lib/error-message';
import { formatDateTime } from '../../../../lib/format';
import type { ListState } from '../../../../lib/list-search';

const col = dataColumnHelper<ClubKey>();
const nowrap = css({ whiteSpace: 'nowrap' });
const mono = css({ fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-all' });
const muted = css({ fontSize: 'sm', color: 'fg.muted', maxW: '2xl' });

/** What each scope lets the subscriber system do, in words. */
const SCOPE_TEXT: Record<ClubKeyScope, string> = {
  'customers.read': 'read a customer by external id',
  'customers.write': 'create and update customers (one by one or by import)',
};

const keyColumns = (onRevoke: (key: ClubKey) => void): DataColumn<ClubKey>[] =>
  col.columns([
    col.accessor('name', { header: 'Name' }),
    col.accessor('prefix', {
      header: 'Key',
      cell: ({ getValue }) => <span className={mono}>{getValue()}_…</span>,
    }),
    col.accessor((k) => k.scopes.join(', '), { id: 'scopes', header: 'Scopes' }),
    col.accessor('createdAt', {
      header: 'Created',
      cell: ({ getValue }) => <span className={nowrap}>{formatDateTime(getValue())}</span>,
    }),
    col.accessor('lastUsedAt', {
      header: 'Last used',
      cell: ({ getValue }) => {
        const at = getValue();
        return <span className={nowrap}>{at ? formatDateTime(at) : 'Never'}</span>;
      },
    }),
    col.accessor('revokedAt', {
      header: 'Status',
      cell: ({ getValue }) => {
        const at = getValue();
        return at ? (
          <span className={nowrap}>
            <Badge tone="danger">Revoked</Badge> {formatDateTime(at)}
          </span>
        ) : (
          <Badge tone="success">Active</Badge>
        );
      },
    }),
    col.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) =>
        row.original.revokedAt ? null : (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onRevoke(row.original)}
            aria-label={`Revoke ${row.original.name}`}
          >
            Revoke
          </Button>
        ),
    }),
  ]);

/** The club holds few keys (at most 25 active): one table, no pages. */
const WHOLE_LIST: ListState = { page: 1, pageSize: 100, search: '' };

/**
 * /dashboard/club-keys (Super Admin only, issue 27): the club's integration keys, which the
 * provider's subscriber system sends as X-Api-Key to the customer sync. Create (the key shown once),
 * list (active, then revoked), revoke after a confirmation.
 */
export function ClubKeysScreen() {
  const keys = useQuery(clubKeysQueryOptions());
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ClubKey | null>(null);
  const columns = useMemo(() => keyColumns(setRevoking), []);
  return (
    <PageBody>
      <PageHeader
        title="Club API keys"
        subtitle="Keys for the provider's subscriber system: it sends one as the X-Api-Key header to bring customers in (docs/integrations.md)."
        actions={<Button onClick={() => setCreating(true)}>Create key</Button>}
      />
      <DataTable
        label="Club API keys"
        columns={columns}
        records={keys.data}
        totalCount={keys.data?.length}
        isPending={keys.isPending}
        isFetching={keys.isFetching}
        error={keys.error}
        onRetry={() => void keys.refetch()}
        state={WHOLE_LIST}
        onChange={() => undefined}
        getRowId={(k) => String(k.id)}
        pager={false}
        toolbar={
          <p className={muted}>
            A key acts for the club, never for a partner, and reaches only the customer sync its scopes allow.
            Revoked keys stay listed; they are refused at once.
          </p>
        }
      />
      <CreateClubKeyDialog open={creating} onClose={() => setCreating(false)} />
      <RevokeClubKeyDialog clubKey={revoking} onClose={() => setRevoking(null)} />
    </PageBody>
  );
}

const DEFAULT_SCOPES: ClubKeyScope[] = ['customers.read', 'customers.write'];

function CreateClubKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ClubKeyScope[]>(DEFAULT_SCOPES);
  return (
    <SecretCreateDialog
      open={open}
      onClose={onClose}
      onReset={() => {
        setName('');
        setScopes(DEFAULT_SCOPES);
      }}
      title="Create club API key"
      createdTitle="Club API key created"
      create={() => createClubKey({ name, scopes })}
      invalidate={clubKeyKeys.all}
      secretOf={(created) => created.key}
      secret={{
        label: 'API key',
        warning:
          "Copy this key now: you will not see it again. Anyone holding it can read or change the club's customers within its scopes.",
        copyLabel: 'Copy key',
        copied: 'Key copied',
      }}
      submitLabel="Create key"
      submittingLabel="Creating key"
    >
      {(errors) => (
        <>
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={errors.name}
            placeholder="Subscriber sync"
          />
          <CheckboxGroup
            legend="Scopes"
            options={CLUB_KEY_SCOPES}
            value={scopes}
            onChange={setScopes}
            error={errors.scopes}
          />
          <ul className={css({ fontSize: 'xs', color: 'fg.muted', display: 'grid', gap: '1' })}>
            {CLUB_KEY_SCOPES.map((scope) => (
              <li key={scope}>
                <span className={mono}>{scope}</span>: {SCOPE_TEXT[scope]}
              </li>
            ))}
          </ul>
        </>
      )}
    </SecretCreateDialog>
  );
}

function RevokeClubKeyDialog({ clubKey, onClose }: { clubKey: ClubKey | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (key: ClubKey) => revokeClubKey(key.id),
    onSuccess: (message) => {
      notify.success(message);
      onClose();
      return queryClient.invalidateQueries({ queryKey: clubKeyKeys.all });
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  return (
    <Dialog
      open={clubKey !== null}
      onOpenChange={(o) => (o || revoke.isPending ? undefined : onClose())}
      title="Revoke club API key"
    >
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Revoke “{clubKey?.name}”? The subscriber system using it is refused at once. This cannot be undone.
      </p>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '6' })}>
        <Button variant="outline" onClick={onClose} disabled={revoke.isPending}>
          Cancel
        </Button>
        <Button
          variant="danger"
          loading={revoke.isPending}
          loadingText="Revoking"
          onClick={() => clubKey && revoke.mutate(clubKey)}
        >
          Revoke
        </Button>
      </div>
    </Dialog>
  );
}
