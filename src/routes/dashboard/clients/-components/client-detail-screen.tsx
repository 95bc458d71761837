import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { type Customer, customerMessages, customerServerMessages } from '../../../../../contract/customers';
import type { AccountStatus } from '../../../../../contract/list';
import { css } from '../../../../../styled-system/css';
import {
  clientInternetInfoQueryOptions,
  customerDetailQueryOptions,
  customerKeys,
  deleteCustomer,
  setCustomerStatus,
} from '../../../../api/customers';
import { statsKeys } from '../../../../api/stats';
import { AccountStatusBadge } from '../../../../components/account-status-badge';
import { ConfirmDeletion } from '../../../../components/confirm-dialog';
import { DetailCard, DetailList } from '../../../../components/detail-list';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { UserIcon } from '../../../../components/icons';
import { LogoSpinner } from '../../../../components/logo-spinner';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { PendingNotice } from '../../../../components/pending-mark';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { Spinner } from '../../../../components/ui/spinner';
import { errorSentence, queryErrorMessage } from '../../../../lib/error-message';
import { formatDate, formatNaira, fullName } from '../../../../lib/format';
import { useCan } from '../../../../lib/use-can';

const route = getRouteApi('/dashboard/clients/$clientId/');

export const CLIENT_DELETED = customerServerMessages.deleted;
export const CLIENT_BLOCKED = customerServerMessages.blocked;
export const CLIENT_UNBLOCKED = customerServerMessages.unblocked;

/** /dashboard/clients/{id}: the customer, their fiber account, Edit, Delete, Block/Unblock. */
export function ClientDetailScreen() {
  const { clientId } = route.useParams();
  const navigate = useNavigate();
  const overlay = useQueuedOverlay('customer');
  const customer = useQuery({ ...customerDetailQueryOptions(clientId), select: overlay.select });
  return (
    <PageBody>
      {customer.isPending ? (
        <LogoSpinner label="Loading client" />
      ) : isForbidden(customer.error) ? (
        <ForbiddenState />
      ) : customer.error ? (
        <>
          <PageHeader
            title="Client"
            actions={
              <Button variant="outline" onClick={() => void navigate({ to: '/dashboard/clients' })}>
                Back
              </Button>
            }
          />
          <p role="alert" className={css({ color: 'red.700' })}>
            {queryErrorMessage(customer.error)}
          </p>
        </>
      ) : (
        <ClientDetail customer={customer.data} queued={overlay.fieldsOf(customer.data.id)} />
      )}
    </PageBody>
  );
}

function ClientDetail({ customer, queued }: { customer: Customer; queued: string[] }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const can = useCan();
  const [confirming, setConfirming] = useState(false);
  const toList = () => void navigate({ to: '/dashboard/clients' });
  const name = fullName(customer.firstName, customer.lastName);

  const remove = useMutation({
    mutationFn: () => deleteCustomer(customer.id),
    onSuccess: async () => {
      setConfirming(false);
      notify.success(CLIENT_DELETED);
      // Leave the screen first, so nothing refetches the deleted client.
      await navigate({ to: '/dashboard/clients' });
      queryClient.removeQueries({ queryKey: customerKeys.detail(customer.id) });
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    },
    onError: (error) => {
      setConfirming(false);
      notify.error(errorSentence(error));
    },
  });
  const status = useMutation({
    mutationFn: (next: AccountStatus) => setCustomerStatus(customer.id, next),
    onSuccess: (_message, next) => {
      notify.success(next === 'BLOCKED' ? CLIENT_BLOCKED : CLIENT_UNBLOCKED);
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const blocked = customer.accountStatus === 'BLOCKED';

  return (
    <>
      <PageHeader
        title={name}
        subtitle="Client details"
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', justifyContent: 'flex-end' })}>
            <Button variant="outline" onClick={toList}>
              Back
            </Button>
            {can('clients.update') ? (
              <>
                <Button
                  variant="outline"
                  loading={status.isPending}
                  loadingText="Changing status"
                  onClick={() => status.mutate(blocked ? 'ACTIVE' : 'BLOCKED')}
                >
                  {blocked ? 'Unblock' : 'Block'}
                </Button>
                <Button
                  variant="outline"
                  onClick={() =>
                    void navigate({
                      to: '/dashboard/clients/$clientId/edit',
                      params: { clientId: customer.id },
                    })
                  }
                >
                  Edit
                </Button>
              </>
            ) : null}
            {can('clients.delete') ? (
              <Button variant="danger" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            ) : null}
          </div>
        }
      />
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
            {customer.imageUrl ? (
              <img
                src={customer.imageUrl}
                alt={name}
                className={css({ w: '40', h: '40', objectFit: 'cover', borderRadius: 'full' })}
              />
            ) : (
              <div
                role="img"
                aria-label="No client image"
                className={css({
                  w: '40',
                  h: '40',
                  borderRadius: 'full',
                  bg: 'bg.subtle',
                  color: 'fg.subtle',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                })}
              >
                <UserIcon size={56} />
              </div>
            )}
            <DetailList
              items={[
                { label: 'First Name', value: customer.firstName },
                { label: 'Last Name', value: customer.lastName },
                { label: 'Email', value: customer.email },
                { label: 'Location', value: customer.address },
                { label: 'Status', value: <AccountStatusBadge status={customer.accountStatus} /> },
                { label: 'Created', value: formatDate(customer.createdAt) },
              ]}
            />
          </div>
        </DetailCard>
        <FiberAccount customerId={customer.id} />
      </div>
      <ConfirmDeletion
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => remove.mutate()}
        pending={remove.isPending}
      >
        {customerMessages.deleteConfirm}
      </ConfirmDeletion>
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
  const info = useQuery(clientInternetInfoQueryOptions(customerId));
  return (
    <DetailCard label="Fiber account">
      <h2 className={css({ fontSize: 'md', fontWeight: 'semibold', mb: '3' })}>Fiber Account</h2>
      {info.isPending ? (
        <Spinner label="Loading fiber account" className={css({ color: 'brand.700' })} />
      ) : info.error ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'red.700' })}>
          {queryErrorMessage(info.error)}
        </p>
      ) : (
        <DetailList
          columns={3}
          items={[
            { label: 'Plan', value: info.data.plan },
            { label: 'Speed', value: `${info.data.speedMbps} Mbps` },
            { label: 'Monthly Fee', value: formatNaira(info.data.monthlyFee) },
            { label: 'Account Status', value: FIBER_STATUS[info.data.status] ?? info.data.status },
            { label: 'Renewal Date', value: formatDate(info.data.renewalDate) },
          ]}
        />
      )}
    </DetailCard>
  );
}
