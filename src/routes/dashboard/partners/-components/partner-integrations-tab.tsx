import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  API_KEY_PERMISSIONS,
  type ApiKey,
  type ApiKeyPermission,
  type CreatedApiKey,
} from '../../../../../contract/api-keys';
import { css } from '../../../../../styled-system/css';
import { apiKeyKeys, apiKeysQueryOptions, createApiKey, revokeApiKey } from '../../../../api/api-keys';
import { Button } from '../../../../components/ui/button';
import { CheckboxGroup } from '../../../../components/ui/checkbox';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { authErrorMessage, queryErrorMessage } from '../../../../lib/error-message';
import { formatDateTime } from '../../../../lib/format';

const table = css({
  w: 'full',
  fontSize: 'sm',
  borderCollapse: 'collapse',
  '& th, & td': {
    textAlign: 'left',
    px: '3',
    py: '2',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    verticalAlign: 'top',
  },
  '& th': { color: 'fg.muted', fontWeight: 'medium' },
});
const mono = css({ fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-all' });

/** The partner page's Integrations tab (integrations.manage): the partner's API keys. */
export function PartnerIntegrationsTab({ partnerId }: { partnerId: number }) {
  const keys = useQuery(apiKeysQueryOptions(partnerId));
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <section aria-label="API keys" className={css({ display: 'grid', gap: '4' })}>
      <div
        className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '3' })}
      >
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          A till or booking system calls the API with a key (header X-Api-Key) as this partner, with the
          permissions chosen for the key. See docs/integrations.md.
        </p>
        <Button onClick={() => setCreating(true)}>Create key</Button>
      </div>
      {keys.isError ? (
        <p role="alert">{queryErrorMessage(keys.error)}</p>
      ) : !keys.data ? (
        <p>Loading…</p>
      ) : keys.data.length === 0 ? (
        <p>No API keys yet.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Permissions</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td className={mono}>{k.prefix}_…</td>
                  <td>{k.permissions.join(', ')}</td>
                  <td className={css({ whiteSpace: 'nowrap' })}>{formatDateTime(k.createdAt)}</td>
                  <td className={css({ whiteSpace: 'nowrap' })}>
                    {k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'Never'}
                  </td>
                  <td>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setRevoking(k)}
                      aria-label={`Revoke ${k.name}`}
                    >
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ApiKeyPermission[]>(['visits.create']);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () => createApiKey(partnerId, { name, permissions }),
    onSuccess: (key) => {
      setCreated(key);
      return queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(partnerId) });
    },
    onError: (e) => {
      const fields = (e as { errors?: { fieldName: string; message: string }[] }).errors ?? [];
      if (fields.length)
        setErrors(Object.fromEntries(fields.map((f) => [f.fieldName.split('.')[0]!, f.message])));
      else notify.error(authErrorMessage(e));
    },
  });
  const close = () => {
    setCreated(null);
    setName('');
    setPermissions(['visits.create']);
    setErrors({});
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    create.mutate();
  };
  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      notify.success('Key copied');
    } catch {
      notify.error('Could not copy: select the key and copy it by hand');
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (o ? undefined : close())}
      title={created ? 'API key created' : 'Create API key'}
    >
      {created ? (
        <div className={css({ display: 'grid', gap: '3' })}>
          <p role="alert">
            Copy this key now. It is not shown again: anyone holding it can act as this partner with its
            permissions.
          </p>
          <TextField label="API key" readOnly value={created.key} className={mono} />
          <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
            <Button variant="outline" onClick={() => void copy()}>
              Copy key
            </Button>
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className={css({ display: 'grid', gap: '3' })} noValidate>
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
          <Button type="submit" loading={create.isPending} loadingText="Creating key">
            Create key
          </Button>
        </form>
      )}
    </Dialog>
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
