import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { type CustomerLink, customerLinkMessages } from '../../../../../contract/customer-links';
import { type Customer, customerMessages, customerServerMessages } from '../../../../../contract/customers';
import { css } from '../../../../../styled-system/css';
import { customerLinks, removeCustomerLink } from '../../../../api/customer-links';
import {
  customerDetailQueryOptions,
  customerInternetInfoQueryOptions,
  customerKeys,
  deleteCustomer,
  setCustomerStatus,
} from '../../../../api/customers';
import { AccountStatusBadge } from '../../../../components/account-status-badge';
import { DetailCard, DetailList } from '../../../../components/detail-list';
import {
  AccountActions,
  DetailHeader,
  DetailImage,
  useAccountActions,
} from '../../../../components/detail-screen';
import { UserIcon } from '../../../../components/icons';
import { PendingNotice } from '../../../../components/pending-mark';
import { QueryErrorText } from '../../../../components/query-error-text';
import { QueuedDetailScreen } from '../../../../components/queued-detail-screen';
import { Button } from '../../../../components/ui/button';
import { Dialog } from '../../../../components/ui/dialog';
import { notify } from '../../../../components/ui/notify';
import { Spinner } from '../../../../components/ui/spinner';
import { errorSentence } from '../../../../lib/error-message';
import { formatDate, formatNaira, fullName } from '../../../../lib/format';
import { useCan } from '../../../../lib/use-can';
import { CustomerPrivacy } from './customer-privacy';

const route = getRouteApi('/dashboard/clients/$clientId/');

/** /dashboard/clients/{id}: the customer, their fiber account, Edit, Delete, Block/Unblock. */
export function CustomerDetailScreen() {
  const { clientId: customerId } = route.useParams();
  const navigate = useNavigate();
  return (
    <QueuedDetailScreen
      entity="customer"
      options={customerDetailQueryOptions(customerId)}
      title="Client"
      loadingLabel="Loading client"
      onBack={() => void navigate({ to: '/dashboard/clients' })}
    >
      {(customer, queued) => <CustomerDetail customer={customer} queued={queued} />}
    </QueuedDetailScreen>
  );
}

function CustomerDetail({ customer, queued }: { customer: Customer; queued: string[] }) {
  const navigate = useNavigate();
  const can = useCan();
  const toList = () => navigate({ to: '/dashboard/clients' });
  const name = fullName(customer.firstName, customer.lastName);
  const { session } = useRouteContext({ from: '__root__' });
  const clubStaff = useSelector(session, (s) => (s.context.session?.user.partnerId ?? null) === null);
  // An erased customer's tombstone is not edited or blocked (decision 054).
  const erased = customer.erasedAt !== undefined;
  const { status, deletion } = useAccountActions({
    account: customer,
    setStatus: setCustomerStatus,
    remove: deleteCustomer,
    messages: { ...customerServerMessages, deleteConfirm: customerMessages.deleteConfirm },
    keys: customerKeys,
    toList,
  });

  return (
    <>
      <DetailHeader title={name} subtitle="Client details" onBack={() => void toList()}>
        <AccountActions
          status={status}
          canUpdate={can('clients.update') && !erased}
          canDelete={can('clients.delete')}
          onEdit={() =>
            void navigate({ to: '/dashboard/clients/$clientId/edit', params: { clientId: customer.id } })
          }
          onDelete={() => deletion.ask(customer)}
        />
      </DetailHeader>
      <PendingNotice fields={queued} />
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
        <DetailCard label="Client summary">
          <div
            className={css({
              display: 'grid',
              gap: '6',
              gridTemplateColumns: { base: '1fr', md: '10rem 1fr' },
              alignItems: 'start',
            })}
          >
            <DetailImage
              src={customer.imageUrl}
              alt={name}
              emptyLabel="No client image"
              icon={<UserIcon size={56} />}
              shape="round"
            />
            <DetailList
              items={[
                { label: 'First Name', value: customer.firstName },
                { label: 'Last Name', value: customer.lastName },
                { label: 'Email', value: customer.email },
                { label: 'Location', value: customer.address },
                { label: 'Status', value: <AccountStatusBadge status={customer.accountStatus} /> },
                { label: 'Created', value: formatDate(customer.createdAt) },
                ...(customer.erasedAt
                  ? [{ label: 'Personal data', value: `Erased ${formatDate(customer.erasedAt)}` }]
                  : []),
              ]}
            />
          </div>
        </DetailCard>
        <FiberAccount customerId={customer.id} />
        <PartnerLinks customerId={customer.id} name={name} />
        {clubStaff && can('customers.privacy') ? <CustomerPrivacy customer={customer} name={name} /> : null}
      </div>
      {deletion.dialog}
    </>
  );
}

const FIBER_STATUS: Record<string, string> = {
  ACTIVE: 'Active',
  SUSPENDED: 'Suspended',
  CANCELLED: 'Cancelled',
};

/** The customer's fiber account, from GET user/internet/client_info. */
function FiberAccount({ customerId }: { customerId: number }) {
  const info = useQuery(customerInternetInfoQueryOptions(customerId));
  return (
    <DetailCard label="Fiber account">
      <h2 className={css({ fontSize: 'md', fontWeight: 'semibold', mb: '3' })}>Fiber Account</h2>
      {info.isPending ? (
        <Spinner label="Loading fiber account" className={css({ color: 'brand.700' })} />
      ) : info.error ? (
        <QueryErrorText error={info.error} look="small" />
      ) : (
        <DetailList
          columns={3}
          items={[
            { label: 'Account Number', value: info.data.accountNumber ?? '—' },
            { label: 'Plan', value: info.data.plan ?? '—' },
            { label: 'Speed', value: info.data.speedMbps === null ? '—' : `${info.data.speedMbps} Mbps` },
            {
              label: 'Monthly Fee',
              value: info.data.monthlyFee === null ? '—' : formatNaira(info.data.monthlyFee),
            },
            { label: 'Account Status', value: FIBER_STATUS[info.data.status] ?? info.data.status },
            {
              label: 'Renewal Date',
              value: info.data.renewalDate === null ? '—' : formatDate(info.data.renewalDate),
            },
          ]}
        />
      )}
    </DetailCard>
  );
}

/**
 * The partners the customer is linked to (issue 28, decision 053): club staff see them and, with
 * clients.update, remove one (the partner can no longer act for the customer until linked again).
 * Partner staff do not see other partners' links.
 */
function PartnerLinks({ customerId, name }: { customerId: number; name: string }) {
  const { session } = useRouteContext({ from: '__root__' });
  const clubStaff = useSelector(session, (s) => (s.context.session?.user.partnerId ?? null) === null);
  const can = useCan();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<CustomerLink | null>(null);
  const links = useQuery({
    queryKey: [...customerKeys.all, 'links', customerId],
    queryFn: () => customerLinks(customerId),
    enabled: clubStaff,
  });
  const remove = useMutation({
    mutationFn: (link: CustomerLink) => removeCustomerLink(customerId, link.id),
    onSuccess: () => {
      notify.success(customerLinkMessages.unlinked);
      setRemoving(null);
      void queryClient.invalidateQueries({ queryKey: [...customerKeys.all, 'links', customerId] });
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  if (!clubStaff) return null;
  return (
    <DetailCard label="Partner links">
      <h2 className={css({ fontSize: 'md', fontWeight: 'semibold', mb: '3' })}>Partner links</h2>
      {links.isPending ? (
        <Spinner label="Loading partner links" className={css({ color: 'brand.700' })} />
      ) : links.error ? (
        <QueryErrorText error={links.error} look="small" />
      ) : links.data.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Not linked to any partner.</p>
      ) : (
        <ul aria-label="Partner links" className={css({ display: 'flex', flexDir: 'column', gap: '2' })}>
          {links.data.map((link) => (
            <li
              key={link.id}
              className={css({
                display: 'flex',
                justifyContent: 'space-between',
                alignItems: 'center',
                flexWrap: 'wrap',
                gap: '2',
                p: '2',
                layerStyle: 'outlined',
                fontSize: 'sm',
              })}
            >
              <span>
                <strong>{link.organizationName}</strong>{' '}
                <span className={css({ color: 'fg.muted' })}>
                  {link.confirmedAt ? `linked ${formatDate(link.confirmedAt)}` : 'pending'}
                </span>
              </span>
              {can('clients.update') ? (
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Remove the link to ${link.organizationName}`}
                  onClick={() => setRemoving(link)}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={removing !== null}
        onOpenChange={(open) => !open && !remove.isPending && setRemoving(null)}
        title="Remove link"
      >
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {removing
            ? `${removing.organizationName} will no longer act for ${name} until the customer gives a new code.`
            : null}
        </p>
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '6' })}>
          <Button variant="outline" disabled={remove.isPending} onClick={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={remove.isPending}
            loadingText="Removing"
            onClick={() => removing && remove.mutate(removing)}
          >
            Remove link
          </Button>
        </div>
      </Dialog>
    </DetailCard>
  );
}
