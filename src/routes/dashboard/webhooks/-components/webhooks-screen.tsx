import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import {
  type CreatedWebhook,
  WEBHOOK_EVENT_TYPES,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
} from '../../../../../contract/webhooks';
import { css } from '../../../../../styled-system/css';
import { ApiError } from '../../../../api/client';
import {
  createWebhook,
  deleteWebhook,
  replayWebhookDelivery,
  updateWebhook,
  webhookDeliveriesQueryOptions,
  webhookKeys,
  webhookListQueryOptions,
} from '../../../../api/webhooks';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Button } from '../../../../components/ui/button';
import { CheckboxGroup } from '../../../../components/ui/checkbox';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { authErrorMessage, queryErrorMessage } from '../../../../lib/error-message';
import { formatDateTime } from '../../../../lib/format';

const route = getRouteApi('/dashboard/webhooks/');

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
const card = css({
  bg: 'bg.surface',
  borderRadius: 'lg',
  boxShadow: 'card',
  p: '4',
  overflowX: 'auto',
  mb: '6',
});
const mono = css({ fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-all' });

/** /dashboard/webhooks: Standard Webhooks endpoints, adding one (its secret shown once) and the delivery log. */
export function WebhooksScreen() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/dashboard/webhooks/' });
  const list = useQuery(webhookListQueryOptions(search.page, search.pageSize));
  const [adding, setAdding] = useState(false);
  const selected = list.data?.records.find((w) => w.id === search.webhook);

  return (
    <PageBody>
      <PageHeader
        title="Webhooks"
        subtitle="Partner systems hear about visits and rewards, signed per Standard Webhooks."
        actions={<Button onClick={() => setAdding(true)}>Add webhook</Button>}
      />
      <section className={card} aria-label="Webhook endpoints">
        {list.isError ? (
          <p role="alert">{queryErrorMessage(list.error)}</p>
        ) : !list.data ? (
          <p>Loading…</p>
        ) : list.data.records.length === 0 ? (
          <p>No webhooks yet.</p>
        ) : (
          <table className={table}>
            <thead>
              <tr>
                <th>URL</th>
                <th>Events</th>
                <th>Partner</th>
                <th>Status</th>
                <th>Created</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.records.map((w) => (
                <WebhookRow
                  key={w.id}
                  webhook={w}
                  onShowDeliveries={() =>
                    navigate({ search: (prev) => ({ ...prev, webhook: w.id, deliveryPage: 1 }) })
                  }
                />
              ))}
            </tbody>
          </table>
        )}
      </section>
      {search.webhook ? (
        <DeliveryLog
          webhookId={search.webhook}
          url={selected?.url}
          page={search.deliveryPage}
          onPage={(deliveryPage) => navigate({ search: (prev) => ({ ...prev, deliveryPage }) })}
        />
      ) : null}
      <AddWebhookDialog open={adding} onClose={() => setAdding(false)} />
    </PageBody>
  );
}

function WebhookRow({ webhook, onShowDeliveries }: { webhook: Webhook; onShowDeliveries: () => void }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const toggle = useMutation({
    mutationFn: () => updateWebhook(webhook.id, { enabled: !webhook.enabled }),
    onSuccess: () => refresh(),
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(webhook.id),
    onSuccess: (message) => {
      notify.success(message);
      return refresh();
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  return (
    <tr>
      <td className={mono}>{webhook.url}</td>
      <td>{webhook.events.join(', ')}</td>
      <td>{webhook.partnerName ?? 'Every partner'}</td>
      <td title={webhook.disabledReason ?? undefined}>{webhook.enabled ? 'Enabled' : 'Disabled'}</td>
      <td className={css({ whiteSpace: 'nowrap' })}>{formatDateTime(webhook.createdAt)}</td>
      <td className={css({ whiteSpace: 'nowrap' })}>
        <Button
          variant="ghost"
          size="sm"
          onClick={onShowDeliveries}
          aria-label={`Deliveries of ${webhook.url}`}
        >
          Deliveries
        </Button>
        <Button variant="ghost" size="sm" loading={toggle.isPending} onClick={() => toggle.mutate()}>
          {webhook.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button
          variant="ghost"
          size="sm"
          loading={remove.isPending}
          onClick={() => remove.mutate()}
          aria-label={`Delete ${webhook.url}`}
        >
          Delete
        </Button>
      </td>
    </tr>
  );
}

function DeliveryLog({
  webhookId,
  url,
  page,
  onPage,
}: {
  webhookId: number;
  url: string | undefined;
  page: number;
  onPage: (page: number) => void;
}) {
  const deliveries = useQuery(webhookDeliveriesQueryOptions(webhookId, page));
  const total = deliveries.data?.meta.totalCount ?? 0;
  return (
    <section className={card} aria-label="Delivery log">
      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' })}>
        Delivery log{url ? <span className={mono}> {url}</span> : null}
      </h2>
      {deliveries.isError ? (
        <p role="alert">{queryErrorMessage(deliveries.error)}</p>
      ) : !deliveries.data ? (
        <p>Loading…</p>
      ) : deliveries.data.records.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <table className={table}>
          <thead>
            <tr>
              <th>Event</th>
              <th>Message</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Next retry</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.records.map((d) => (
              <DeliveryRow key={d.id} webhookId={webhookId} delivery={d} />
            ))}
          </tbody>
        </table>
      )}
      {total > 20 ? (
        <div className={css({ display: 'flex', gap: '2', mt: '3' })}>
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={page * 20 >= total} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function DeliveryRow({ webhookId, delivery }: { webhookId: number; delivery: WebhookDelivery }) {
  const queryClient = useQueryClient();
  const replay = useMutation({
    mutationFn: () => replayWebhookDelivery(webhookId, delivery.id),
    onSuccess: (message) => {
      notify.success(message);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  return (
    <tr>
      <td>{delivery.eventType}</td>
      <td className={mono}>{delivery.messageId}</td>
      <td>{delivery.status}</td>
      <td>
        <ul aria-label={`Attempts of ${delivery.messageId}`}>
          {delivery.attempts.map((a) => (
            <li key={a.at}>
              {formatDateTime(a.at)}: {a.statusCode ?? 'no answer'} in {a.durationMs} ms
              {a.error ? ` (${a.error})` : ''}
              {a.nextRetryAt ? `, retry ${formatDateTime(a.nextRetryAt)}` : ''}
            </li>
          ))}
        </ul>
      </td>
      <td>{delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : '—'}</td>
      <td>
        <Button variant="ghost" size="sm" loading={replay.isPending} onClick={() => replay.mutate()}>
          Replay
        </Button>
      </td>
    </tr>
  );
}

function AddWebhookDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { session } = useRouteContext({ from: '__root__' });
  const partnerStaff = useSelector(session, (s) => s.context.session?.user.partnerId != null);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [partnerId, setPartnerId] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['visit.recorded']);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: () =>
      createWebhook({
        url,
        events,
        ...(description ? { description } : {}),
        ...(partnerId && !partnerStaff ? { partnerId: Number(partnerId) } : {}),
      }),
    onSuccess: (hook) => {
      setCreated(hook);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
    onError: (e) => {
      const fields = e instanceof ApiError ? e.errors : [];
      if (fields.length)
        setErrors(Object.fromEntries(fields.map((f) => [f.fieldName.split('.')[0]!, f.message])));
      else notify.error(authErrorMessage(e));
    },
  });
  const close = () => {
    setCreated(null);
    setUrl('');
    setDescription('');
    setPartnerId('');
    setErrors({});
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    create.mutate();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (o ? undefined : close())}
      title={created ? 'Webhook added' : 'Add webhook'}
    >
      {created ? (
        <div className={css({ display: 'grid', gap: '3' })}>
          <p>Copy this signing secret now. It is not shown again.</p>
          <TextField label="Signing secret" readOnly value={created.secret} className={mono} />
          <Button onClick={close}>Done</Button>
        </div>
      ) : (
        <form onSubmit={submit} className={css({ display: 'grid', gap: '3' })} noValidate>
          <TextField
            label="URL"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={errors.url}
            placeholder="https://pos.example.com/hooks"
          />
          <TextField
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            error={errors.description}
          />
          {partnerStaff ? null : (
            <TextField
              label="Partner ID (empty: every partner)"
              inputMode="numeric"
              value={partnerId}
              onChange={(e) => setPartnerId(e.target.value.replace(/\D/g, ''))}
              error={errors.partnerId}
            />
          )}
          <CheckboxGroup
            legend="Events"
            options={WEBHOOK_EVENT_TYPES}
            value={events}
            onChange={setEvents}
            error={errors.events}
          />
          <Button type="submit" loading={create.isPending} loadingText="Adding webhook">
            Add webhook
          </Button>
        </form>
      )}
    </Dialog>
  );
}
