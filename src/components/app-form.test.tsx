import { useForm } from '@tanstack/react-form';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from '../../contract/zod';
import { ApiError } from '../lib/api-error';
import { fieldProps, validateOnChangeAndBlur } from '../lib/form';
import { AppForm } from './app-form';
import { TextField } from './ui/field';
import { PasswordField } from './ui/password-input';

const schema = z.object({
  name: z.string().check(z.minLength(1, { error: 'Name is required' })),
  email: z.string(),
  password: z.string(),
});

function TestForm({ send }: { send: (value: z.infer<typeof schema>) => Promise<unknown> }) {
  const form = useForm({
    defaultValues: { name: '', email: '', password: '' },
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: schema },
    onSubmit: ({ value }) => send(value),
  });
  return (
    <AppForm form={form} aria-label="Test">
      <form.Field name="name">{(field) => <TextField label="Name" {...fieldProps(field)} />}</form.Field>
      <form.Field name="email">{(field) => <TextField label="Email" {...fieldProps(field)} />}</form.Field>
      <form.Field name="password">
        {(field) => <PasswordField label="Password" {...fieldProps(field)} />}
      </form.Field>
      <button type="submit">Save</button>
    </AppForm>
  );
}

/** The server's 409 about one field, as the API client throws it. */
const conflict = (fieldName: string, message: string) => new ApiError(409, message, [{ fieldName, message }]);

describe('AppForm', () => {
  it('sends once: a double click and a repeated Enter while the call runs send one request', async () => {
    let finish: () => void = () => undefined;
    const send = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const user = userEvent.setup();
    render(<TestForm send={send} />);
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.dblClick(screen.getByRole('button', { name: 'Save' }));
    await user.type(screen.getByLabelText('Email'), '{Enter}{Enter}');
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(send).toHaveBeenCalledTimes(1);
    finish();
    // Once the answer is in, the next submit goes.
    await waitFor(async () => {
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(send).toHaveBeenCalledTimes(2);
    });
  });

  it("puts the server's one-field answer on its field: marked, described, focused", async () => {
    const send = vi.fn(() => Promise.reject(conflict('email', 'A user with this email already exists')));
    const user = userEvent.setup();
    render(<TestForm send={send} />);
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const message = await screen.findByText('A user with this email already exists');
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAttribute('aria-describedby', message.id);
    await waitFor(() => expect(email).toHaveFocus());
    // Changing the field clears the server's word about it.
    await user.type(email, 'x');
    await waitFor(() =>
      expect(screen.queryByText('A user with this email already exists')).not.toBeInTheDocument(),
    );
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('a password field gets the same marks (Old password is incorrect)', async () => {
    const send = vi.fn(() =>
      Promise.reject(
        new ApiError(400, 'Old password is incorrect', [
          { fieldName: 'password', message: 'Old password is incorrect' },
        ]),
      ),
    );
    const user = userEvent.setup();
    render(<TestForm send={send} />);
    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('Password'), 'Wrong#1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const message = await screen.findByText('Old password is incorrect');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAttribute('aria-describedby', message.id);
    await waitFor(() => expect(password).toHaveFocus());
  });

  it('an invalid submit shows every error and focuses the first invalid field; nothing is sent', async () => {
    const send = vi.fn(() => Promise.resolve());
    const user = userEvent.setup();
    render(<TestForm send={send} />);
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    expect(send).not.toHaveBeenCalled();
  });
});
