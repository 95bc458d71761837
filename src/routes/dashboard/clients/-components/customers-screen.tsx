import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Customer } from '../../../../../contract/customers';
import { css } from '../../../../../styled-system/css';
import { customerListQueryOptions, exportCustomers } from '../../../../api/customers';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { AddButton, ListTable, ListTabs, useRouteList } from '../../../../components/list-screen';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { PendingBadge } from '../../../../components/pending-mark';
import { screenPermission } from '../../../../components/screens';
import { Avatar } from '../../../../components/ui/avatar';
import { formatDate, fullName } from '../../../../lib/format';
import { AddCustomerButton } from './add-customer-button';
import { type CustomerTab, customerListParams } from './customer-search';

const route = getRouteApi('/dashboard/clients/');
const col = dataColumnHelper<Customer>();
const nowrap = css({ whiteSpace: 'nowrap' });
/** The header's buttons (Add customer, Import customers), side by side, wrapping on a phone. */
const headerActions = css({ display: 'flex', flexWrap: 'wrap', gap: '2' });

const columns: DataColumn<Customer>[] = col.columns([
  col.accessor('firstName', {
    header: 'Name',
    enableSorting: true,
    cell: ({ row }) => {
      const name = fullName(row.original.firstName, row.original.lastName);
      return (
        <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '3' })}>
          <Avatar name={name} src={row.original.imageUrl} size="sm" />
          <Link
            to="/dashboard/clients/$clientId"
            params={{ clientId: row.original.id }}
            className={css({
              fontWeight: 'semibold',
              color: 'brand.700',
              _hover: { textDecoration: 'underline' },
            })}
          >
            {name}
          </Link>
          <PendingBadge entity="customer" entityId={row.original.id} />
        </span>
      );
    },
  }),
  col.accessor('email', { header: 'Email', enableSorting: true }),
  col.accessor('address', { header: 'Location', cell: ({ getValue }) => getValue() || '-' }),
  col.accessor('createdAt', {
    header: 'Created',
    enableSorting: true,
    cell: ({ getValue }) => <span className={nowrap}>{formatDate(getValue())}</span>,
  }),
]);

const TAB_LABELS: Record<CustomerTab, string> = { active: 'Active Customers', blocked: 'Blocked Customers' };

/** /dashboard/clients: the customer list with Active/Blocked tabs in the URL; rows open the detail. */
export function CustomersScreen() {
  return (
    <PageBody>
      <PageHeader
        title="Clients / Manage Clients"
        actions={
          <div className={headerActions}>
            <AddCustomerButton />
            <AddButton to="/dashboard/clients/import" permission="customers.import">
              Import customers
            </AddButton>
          </div>
        }
      />
      <ListTabs label="Customer status" labels={TAB_LABELS} route={route}>
        <CustomerList />
      </ListTabs>
    </PageBody>
  );
}

function CustomerList() {
  const search = route.useSearch();
  const params = customerListParams(search);
  const overlay = useQueuedOverlay('customer');
  return (
    <ListTable
      label="Customers"
      columns={columns}
      query={useQuery({ ...customerListQueryOptions(params), select: overlay.select })}
      {...useRouteList(route)}
      searchLabel="Search customers"
      exportCsv={{
        download: (opts) => exportCustomers(params, opts),
        permission: screenPermission('/dashboard/clients/'),
      }}
    />
  );
}
