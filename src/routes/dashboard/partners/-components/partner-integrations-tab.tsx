import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { API_KEY_PERMISSIONS, type ApiKey, type ApiKeyPermission } from '../../../../../contract/api-keys';
import { css } from '../../../../../styled-system/css';
import { apiKeyKeys, apiKeysQueryOptions, createApiKey, revokeApiKey } from '../../../../api/api-keys';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { SecretCreateDialog } from '../../../../components/secret-once';
import { Button } from '../../../../components/ui/button';
import { CheckboxGroup } from '../../../../components/ui/checkbox';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { authErrorMessage } from '../../../../lib/error-message';
import { formatDateTime } from '../../../../lib/format';
import type { ListState } from '../../../../lib/list-search';

const col = dataColumnHelper<ApiKey>();
const nowrap = css({ whiteSpace: 'nowrap' });
const mono = css({ fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-all' });

const keyColumns = (onRevoke: (key: ApiKey) => void): DataColumn<ApiKey>[] =>
  col.columns([
    col.accessor('name', { header: 'Name' }),
    col.accessor('prefix', {
      header: 'Key',
      cell: ({ getValue }) => <span className={mono}>{getValue()}_…</span>,
    }),
    col.accessor((k) => k.permissions.join(', '), { id: 'permissions', header: 'Permissions' }),
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
    col.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => (
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

/** A partner's keys are few: one table, no pages. */
const WHOLE_LIST: ListState = { page: 1, pageSize: 10, search: '' };

/** The partner page's Integrations tab (integrations.manage): the partner's API keys. */
export function PartnerIntegrationsTab({ partnerId }: { partnerId: number }) {
  const keys = useQuery(apiKeysQueryOptions(partnerId));
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const columns = useMemo(() => keyColumns(setRevoking), []);

  return (
    <section
      aria-label="API keys"
      className={css({ display: 'grid', gap: '4', gridTemplateColumns: 'minmax(0, 1fr)' })}
    >
      <DataTable
        label="API keys"
        columns={columns}
        records={keys.data}
        totalCount={keys.data?.length}
        isPending={keys.isPending}
        isFetching={keys.isFetching}
        error={keys.error}
        state={WHOLE_LIST}
        onChange={() => undefined}
        getRowId={(k) => String(k.id)}
        pager={false}
        toolbar={
          <>
            <p className={css({ fontSize: 'sm', color: 'fg.muted', maxW: '2xl' })}>
              A till or booking system calls the API with a key (header X-Api-Key) as this partner, with the
              permissions chosen for the key. See docs/integrations.md.
            </p>
            <Button onClick={() => setCreating(true)}>Create key</Button>
          </>
        }
      />
      <CreateKeyDialog partnerId={partnerId} open={creating} onClose={() => setCreating(false)} />
      <RevokeKeyDialog partnerId={partnerId} apiKey={revoking} onClose={() => setRevoking(null)} />
    </section>
  );
}

function CreateKeyDialog({
  partnerId,
  open,
  onClose,
}: {
  partnerId: number;
  open: boolean;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ApiKeyPermission[]>(['visits.create']);
  return (
    <SecretCreateDialog
      open={open}
      onClose={onClose}
      onReset={() => {
        setName('');
        setPermissions(['visits.create']);
      }}
      title="Create API key"
      createdTitle="API key created"
      create={() => createApiKey(partnerId, { name, permissions })}
      invalidate={apiKeyKeys.list(partnerId)}
      secretOf={(created) => created.key}
      secret={{
        label: 'API key',
        warning:
          'Copy this key now. It is not shown again: anyone holding it can act as this partner with its permissions.',
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
            placeholder="Front till"
          />
          <CheckboxGroup
            legend="Permissions"
            options={API_KEY_PERMISSIONS}
            value={permissions}
            onChange={setPermissions}
            error={errors.permissions}
          />
        </>
      )}
    </SecretCreateDialog>
  );
}

function RevokeKeyDialog({
  partnerId,
  apiKey,
  onClose,
}: {
  partnerId: number;
  apiKey: ApiKey | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => revokeApiKey(partnerId, key.id),
    onSuccess: (message) => {
      notify.success(message);
      onClose();
      return queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(partnerId) });
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  return (
    <Dialog
      open={apiKey !== null}
      onOpenChange={(o) => (o || revoke.isPending ? undefined : onClose())}
      title="Revoke API key"
    >
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        Revoke “{apiKey?.name}”? Systems using it are refused at once. This cannot be undone.
      </p>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '6' })}>
        <Button variant="outline" onClick={onClose} disabled={revoke.isPending}>
          Cancel
        </Button>
        <Button
          variant="danger"
          loading={revoke.isPending}
          loadingText="Revoking"
          onClick={() => apiKey && revoke.mutate(apiKey)}
        >
          Revoke
        </Button>
      </div>
    </Dialog>
  );
}
