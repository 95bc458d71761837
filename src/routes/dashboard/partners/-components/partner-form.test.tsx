import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { extendedServiceKeys } from '../../../../api/extended-services';
import { addPartnerFormSchema, emptyPartnerForm, type PartnerFormValues } from '../../../../lib/partner-form';
import { PartnerForm } from './partner-form';
import { ServicesCell } from './partners-screen';

function renderAddForm(onSubmit: (values: PartnerFormValues) => Promise<unknown> = async () => undefined) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(extendedServiceKeys.choices(), [
    { id: 1, title: 'Fiber installation' },
    { id: 2, title: 'Free Wi-Fi' },
  ]);
  render(
    <QueryClientProvider client={queryClient}>
      <PartnerForm
        mode="add"
        defaultValues={emptyPartnerForm}
        schema={addPartnerFormSchema}
        pending={false}
        onSubmit={onSubmit}
      />
    </QueryClientProvider>,
  );
}

describe('partner add form on screen', () => {
  it('shows every spec message on an empty submit and keeps the 10000 default with a 2000 minimum', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderAddForm(onSubmit);
    const minSpend = screen.getByLabelText('Minimum Spend To Qualify');
    expect(minSpend).toHaveValue(10000);
    expect(minSpend).toHaveAttribute('min', '2000');

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    for (const message of [
      'First name is required',
      'Last name is required',
      'required',
      'Phone number is required',
      'Organization name is required',
      'Address is required',
      'Cover image is required',
      'You must select at least one extended service',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(minSpend);
    await user.type(minSpend, '1500');
    expect(await screen.findByText('Minimum spend to qualify must be at least ₦2,000')).toBeInTheDocument();
  });

  it('takes a phone as people write it, and says what is wrong with a wrong one (issue 22)', async () => {
    const user = userEvent.setup();
    renderAddForm();
    const phone = screen.getByLabelText('Phone');
    expect(phone).toHaveAttribute('inputmode', 'tel');
    await user.type(phone, '+234 (803) 123-4567');
    await user.tab();
    expect(phone).not.toHaveAttribute('aria-invalid', 'true');
    await user.clear(phone);
    await user.type(phone, '0803 12x 4567');
    expect(
      await screen.findByText(
        'Phone number may contain only digits, spaces, dashes, brackets and a leading +234',
      ),
    ).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
  });

  it('rejects a cover image that is not an image file, and submits a complete form', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const onSubmit = vi.fn();
    renderAddForm(onSubmit);
    const cover = screen.getByLabelText('Cover Image');
    await user.upload(cover, new File(['plain text'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Cover image must be an image file')).toBeInTheDocument();

    await user.upload(cover, new File([new Uint8Array(8)], 'cover.png', { type: 'image/png' }));
    await waitFor(() =>
      expect(screen.queryByText('Cover image must be an image file')).not.toBeInTheDocument(),
    );

    await user.type(screen.getByLabelText('First Name'), 'Chidi');
    await user.type(screen.getByLabelText('Last Name'), 'Eze');
    await user.type(screen.getByLabelText('Email'), 'chidi@mamaput.ng');
    await user.type(screen.getByLabelText('Phone'), '08031234567');
    await user.type(screen.getByLabelText('Organization Name'), 'Mama Put Kitchen');
    await user.type(screen.getByLabelText('Address'), '12 Allen Avenue');
    const services = screen.getByRole('group', { name: 'Extended Services' });
    await user.click(within(services).getByRole('checkbox', { name: 'Free Wi-Fi' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const submitted = onSubmit.mock.calls[0]?.[0] as PartnerFormValues;
    expect(submitted).toMatchObject({
      organizationName: 'Mama Put Kitchen',
      minSpendToQualify: '10000',
      extendedServiceIds: [2],
    });
    expect(submitted.coverImage?.name).toBe('cover.png');
  });

  it('clears the services message once a service is ticked', async () => {
    renderAddForm();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('You must select at least one extended service')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Fiber installation' }));
    await waitFor(() =>
      expect(screen.queryByText('You must select at least one extended service')).not.toBeInTheDocument(),
    );
  });
});

describe('extended services text in the partner list', () => {
  it('is cut at 30 characters with an ellipsis, the full text in the title', () => {
    const partner = {
      partnerExtendedServices: [
        { id: 1, title: 'Fiber installation' },
        { id: 2, title: 'Free Wi-Fi' },
        { id: 3, title: 'Router upgrade' },
      ],
    };
    render(<ServicesCell partner={partner} />);
    const full = 'Fiber installation, Free Wi-Fi, Router upgrade';
    const cell = screen.getByTitle(full);
    expect(cell).toHaveTextContent(`${full.slice(0, 30)}…`);
    expect(cell.textContent?.replace('…', '').length).toBe(30);
  });

  it('shows short text whole, and a dash for none', () => {
    const { unmount } = render(
      <ServicesCell partner={{ partnerExtendedServices: [{ id: 1, title: 'Free Wi-Fi' }] }} />,
    );
    expect(screen.getByTitle('Free Wi-Fi')).toHaveTextContent(/^Free Wi-Fi$/);
    unmount();
    render(<ServicesCell partner={{ partnerExtendedServices: [] }} />);
    expect(screen.getByText('-')).toBeInTheDocument();
  });
});
