import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AddCustomerFormValues } from '../../../../lib/add-customer-form';
import { ApiError } from '../../../../lib/api-error';
import { AddCustomerForm } from './add-customer-form';

const renderForm = (onSubmit: (values: AddCustomerFormValues) => Promise<unknown>) =>
  render(<AddCustomerForm pending={false} onSubmit={onSubmit} />);

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('External ID'), 'SUB-104233');
  await user.type(screen.getByLabelText('First Name'), 'Chiamaka');
  await user.type(screen.getByLabelText('Last Name'), 'Nwosu');
  await user.type(screen.getByLabelText('Email'), 'chiamaka.nwosu@mail.ng');
}

describe('Add customer form on screen (issue 27)', () => {
  it('an empty submit shows each required field its message and sends nothing', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    renderForm(onSubmit);
    await user.click(screen.getByRole('button', { name: 'Add customer' }));
    for (const message of ['First name is required', 'Last name is required', 'required']) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText('External ID')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/^externalId must be 1 to 64 characters/)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a bad email or phone is shown at its field and nothing is sent', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    renderForm(onSubmit);
    await fillRequired(user);
    const email = screen.getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'chiamaka@');
    await user.type(screen.getByLabelText('Phone'), '0803 12');
    await user.click(screen.getByRole('button', { name: 'Add customer' }));
    expect(await screen.findByText('pls provide a valid email')).toBeInTheDocument();
    expect(screen.getByText('Phone number cannot be less than 7 digits')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Phone')).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the values as typed, status Blocked when chosen', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async (_values: AddCustomerFormValues) => undefined);
    renderForm(onSubmit);
    await fillRequired(user);
    await user.type(screen.getByLabelText('Phone'), '+234 (803) 123-4567');
    await user.selectOptions(screen.getByLabelText('Status'), 'Blocked');
    await user.click(screen.getByRole('button', { name: 'Add customer' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      externalId: 'SUB-104233',
      email: 'chiamaka.nwosu@mail.ng',
      phone: '+234 (803) 123-4567',
      status: 'BLOCKED',
    });
  });

  it("puts the server's field errors on their fields (a taken external id, a taken email)", async () => {
    const user = userEvent.setup();
    const taken = 'This email belongs to another customer (another external id); change one of them first';
    renderForm(() =>
      Promise.reject(
        new ApiError(409, taken, [
          { fieldName: 'email', message: taken },
          { fieldName: 'externalId', message: 'A customer with this external id already exists' },
        ]),
      ),
    );
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Add customer' }));
    expect(await screen.findByText(taken)).toBeInTheDocument();
    expect(screen.getByText('A customer with this external id already exists')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('External ID')).toHaveAttribute('aria-invalid', 'true');
  });
});
