import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type Customer, customerMessages, customerServerMessages } from '../../../../../contract/customers';
import { css } from '../../../../../styled-system/css';
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
import { Spinner } from '../../../../components/ui/spinner';
import { formatDate, formatNaira, fullName } from '../../../../lib/format';
import { useCan } from '../../../../lib/use-can';

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
          canUpdate={can('clients.update')}
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
              ]}
            />
          </div>
        </DetailCard>
        <FiberAccount customerId={customer.id} />
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
