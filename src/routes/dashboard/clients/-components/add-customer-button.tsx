import { AddButton } from '../../../../components/list-screen';

/** 'Add customer' on the client list (issue 27): holders of customers.create only. */
export function AddCustomerButton() {
  return (
    <AddButton to="/dashboard/clients/add" permission="customers.create">
      Add customer
    </AddButton>
  );
}
