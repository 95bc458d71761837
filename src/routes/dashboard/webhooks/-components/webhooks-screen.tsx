import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import {
  type CreatedWebhook,
  reachesPartnerEndpoint,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_OVERLAP_TEXT,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
} from '../../../../../contract/webhooks';
import { css } from '../../../../../styled-system/css';
import {
  createWebhook,
  deleteWebhook,
  replayWebhookDelivery,
  rotateWebhookSecret,
  updateWebhook,
  webhookDeliveriesQueryOptions,
  webhookKeys,
  webhookListQueryOptions,
} from '../../../../api/webhooks';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { ListTable, useRouteList } from '../../../../components/list-screen';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { SecretCreateDialog, SecretOnce } from '../../../../components/secret-once';
import { Button } from '../../../../components/ui/button';
import { CheckboxGroup } from '../../../../components/ui/checkbox';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { authErrorMessage } from '../../../../lib/error-message';
import { formatDateTime } from '../../../../lib/format';
import type { ListState } from '../../../../lib/list-search';

const route = getRouteApi('/dashboard/webhooks/');

const card = css({
  bg: 'bg.surface',
  borderRadius: 'lg',
  boxShadow: 'card',
  p: '4',
  overflowX: 'auto',
  mb: '6',
});
const mono = css({ fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-all' });
const nowrap = css({ whiteSpace: 'nowrap' });
const hint = css({ display: 'block', fontSize: 'xs', color: 'fg.muted' });

const hook = dataColumnHelper<Webhook>();
const webhookColumns = (onShowDeliveries: (webhook: Webhook) => void): DataColumn<Webhook>[] =>
  hook.columns([
    hook.accessor('url', {
      header: 'URL',
      cell: ({ getValue }) => <span className={mono}>{getValue()}</span>,
    }),
    hook.accessor((w) => w.events.join(', '), { id: 'events', header: 'Events' }),
    hook.accessor((w) => w.partnerName ?? 'Every partner', { id: 'partner', header: 'Partner' }),
    hook.display({
      id: 'status',
      header: 'Status',
      cell: ({ row: { original: w } }) => (
        <>
          <span title={w.disabledReason ?? undefined}>{w.enabled ? 'Enabled' : 'Disabled'}</span>
          {w.previousSecretExpiresAt ? (
            <span className={hint}>Old secret signs until {formatDateTime(w.previousSecretExpiresAt)}</span>
          ) : null}
        </>
      ),
    }),
    hook.accessor('createdAt', {
      header: 'Created',
      cell: ({ getValue }) => <span className={nowrap}>{formatDateTime(getValue())}</span>,
    }),
    hook.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => (
        <WebhookActions webhook={row.original} onShowDeliveries={() => onShowDeliveries(row.original)} />
      ),
    }),
  ]);

/** /dashboard/webhooks: Standard Webhooks endpoints, adding one (its secret shown once) and the delivery log. */
export function WebhooksScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const list = useQuery(webhookListQueryOptions(search.page, search.pageSize));
  const [adding, setAdding] = useState(false);
  const selected = list.data?.records.find((w) => w.id === search.webhook);
  const columns = useMemo(
    () =>
      webhookColumns(
        (w) => void navigate({ search: (prev) => ({ ...prev, webhook: w.id, deliveryPage: 1 }) }),
      ),
    [navigate],
  );

  return (
    <PageBody>
      <PageHeader
        title="Webhooks"
        subtitle="Partner systems hear about visits and rewards, signed per Standard Webhooks."
        actions={<Button onClick={() => setAdding(true)}>Add webhook</Button>}
      />
      <section className={css({ mb: '6' })} aria-label="Webhook endpoints">
        <ListTable
          label="Webhooks"
          columns={columns}
          query={list}
          {...useRouteList(route)}
          getRowId={(w) => String(w.id)}
        />
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

function WebhookActions({ webhook, onShowDeliveries }: { webhook: Webhook; onShowDeliveries: () => void }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const toggle = useMutation({
    mutationFn: () => updateWebhook(webhook.id, { enabled: !webhook.enabled }),
    onSuccess: () => refresh(),
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  const [rotating, setRotating] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteWebhook(webhook.id),
    onSuccess: (message) => {
      notify.success(message);
      return refresh();
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  return (
    <span className={nowrap}>
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
        onClick={() => setRotating(true)}
        aria-label={`Rotate secret of ${webhook.url}`}
      >
        Rotate secret
      </Button>
      <RotateSecretDialog webhook={webhook} open={rotating} onClose={() => setRotating(false)} />
      <Button
        variant="ghost"
        size="sm"
        loading={remove.isPending}
        onClick={() => remove.mutate()}
        aria-label={`Delete ${webhook.url}`}
      >
        Delete
      </Button>
    </span>
  );
}

/**
 * 'Rotate secret': a confirmation that says what happens, then the new secret shown once, as at
 * creation (SecretOnce); the old one keeps signing beside it for a day (decision 065).
 */
function RotateSecretDialog({
  webhook,
  open,
  onClose,
}: {
  webhook: Webhook;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [rotated, setRotated] = useState<CreatedWebhook | null>(null);
  const rotate = useMutation({
    mutationFn: () => rotateWebhookSecret(webhook.id),
    onSuccess: (value) => {
      setRotated(value);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  const close = () => {
    if (rotate.isPending) return;
    setRotated(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (o ? undefined : close())}
      title={rotated ? 'Secret rotated' : 'Rotate signing secret'}
    >
      {rotated ? (
        <SecretOnce
          label="Signing secret"
          value={rotated.secret}
          warning={`Copy this new signing secret now. It is not shown again. The old secret also signs every delivery until ${formatDateTime(rotated.previousSecretExpiresAt)}: give the receiver the new one before then.`}
          copyLabel="Copy secret"
          copied="Secret copied"
          onDone={close}
        />
      ) : (
        <div className={css({ display: 'grid', gap: '4' })}>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            A new signing secret is made for <span className={mono}>{webhook.url}</span> and shown once. For
            the next {WEBHOOK_SECRET_OVERLAP_TEXT} every delivery is signed with both the old and the new
            secret, so the receiver can switch; after that only the new one signs.
          </p>
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap' })}>
            <Button variant="outline" onClick={close} disabled={rotate.isPending}>
              Cancel
            </Button>
            <Button loading={rotate.isPending} loadingText="Rotating secret" onClick={() => rotate.mutate()}>
              Rotate secret
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** The delivery log shows 20 a page (the API's page of deliveries). */
const DELIVERY_PAGE: ListState = { page: 1, pageSize: 20, search: '' };

const delivery = dataColumnHelper<WebhookDelivery>();
const deliveryColumns = (webhookId: number): DataColumn<WebhookDelivery>[] =>
  delivery.columns([
    delivery.accessor('eventType', { header: 'Event' }),
    delivery.accessor('messageId', {
      header: 'Message',
      cell: ({ getValue }) => <span className={mono}>{getValue()}</span>,
    }),
    delivery.accessor('status', { header: 'Status' }),
    delivery.display({
      id: 'attempts',
      header: 'Attempts',
      cell: ({ row: { original: d } }) => (
        <ul aria-label={`Attempts of ${d.messageId}`}>
          {d.attempts.map((a) => (
            <li key={a.at}>
              {formatDateTime(a.at)}: {a.statusCode ?? 'no answer'} in {a.durationMs} ms
              {a.error ? ` (${a.error})` : ''}
              {a.nextRetryAt ? `, retry ${formatDateTime(a.nextRetryAt)}` : ''}
            </li>
          ))}
        </ul>
      ),
    }),
    delivery.accessor('nextAttemptAt', {
      header: 'Next retry',
      cell: ({ getValue }) => {
        const at = getValue();
        return at ? formatDateTime(at) : '—';
      },
    }),
    delivery.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => <ReplayButton webhookId={webhookId} delivery={row.original} />,
    }),
  ]);

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
  const columns = useMemo(() => deliveryColumns(webhookId), [webhookId]);
  return (
    <section className={card} aria-label="Delivery log">
      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' })}>
        Delivery log{url ? <span className={mono}> {url}</span> : null}
      </h2>
      <DataTable
        label="Deliveries"
        columns={columns}
        records={deliveries.data?.records}
        totalCount={total}
        isPending={deliveries.isPending}
        error={deliveries.error}
        state={DELIVERY_PAGE}
        onChange={() => undefined}
        getRowId={(d) => String(d.id)}
        pager={false}
      />
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

function ReplayButton({ webhookId, delivery }: { webhookId: number; delivery: WebhookDelivery }) {
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
    <Button variant="ghost" size="sm" loading={replay.isPending} onClick={() => replay.mutate()}>
      Replay
    </Button>
  );
}

function AddWebhookDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { session } = useRouteContext({ from: '__root__' });
  const partnerStaff = useSelector(session, (s) => s.context.session?.user.partnerId != null);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [partnerId, setPartnerId] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['visit.recorded']);
  // A partner's endpoint is never sent the club-only events: they are not offered there (the server
  // refuses them too).
  const forPartner = partnerStaff || partnerId !== '';
  const offered = forPartner ? WEBHOOK_EVENT_TYPES.filter(reachesPartnerEndpoint) : WEBHOOK_EVENT_TYPES;
  const chosen = forPartner ? events.filter(reachesPartnerEndpoint) : events;
  return (
    <SecretCreateDialog
      open={open}
      onClose={onClose}
      onReset={() => {
        setUrl('');
        setDescription('');
        setPartnerId('');
      }}
      title="Add webhook"
      createdTitle="Webhook added"
      create={() =>
        createWebhook({
          url,
          events: chosen,
          ...(description ? { description } : {}),
          ...(partnerId && !partnerStaff ? { partnerId: Number(partnerId) } : {}),
        })
      }
      invalidate={webhookKeys.all}
      secretOf={(created) => created.secret}
      secret={{
        label: 'Signing secret',
        warning: 'Copy this signing secret now. It is not shown again.',
        copyLabel: 'Copy secret',
        copied: 'Secret copied',
      }}
      submitLabel="Add webhook"
      submittingLabel="Adding webhook"
    >
      {(errors) => (
        <>
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
            options={offered}
            value={chosen}
            onChange={setEvents}
            error={errors.events}
          />
        </>
      )}
    </SecretCreateDialog>
  );
}
