import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SignInForm } from './sign-in-form';

const setup = (submitting = false) => {
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  render(<SignInForm onSubmit={onSubmit} submitting={submitting} />);
  return {
    onSubmit,
    user,
    email: screen.getByLabelText('Email'),
    password: screen.getByLabelText('Password'),
  };
};

describe('SignInForm', () => {
  it('shows the fields with the spec placeholders and no errors before they are touched', () => {
    const { email, password } = setup();
    expect(email).toHaveAttribute('placeholder', 'Enter your email');
    expect(password).toHaveAttribute('placeholder', 'Enter your password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByText('required')).not.toBeInTheDocument();
    expect(screen.queryByText('Pls enter your password')).not.toBeInTheDocument();
  });

  it('shows an error under a field once it was touched, and marks it invalid', async () => {
    const { user, email, password } = setup();
    await user.click(email);
    await user.tab();
    expect(await screen.findByText('required')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Pls enter your password')).not.toBeInTheDocument();

    await user.type(email, 'not-an-email');
    expect(await screen.findByText('pls provide a valid email')).toBeInTheDocument();

    await user.click(password);
    await user.tab();
    expect(await screen.findByText('Pls enter your password')).toBeInTheDocument();

    await user.clear(email);
    await user.type(email, 'admin@rewardclub.ng');
    await waitFor(() => expect(screen.queryByText('pls provide a valid email')).not.toBeInTheDocument());
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('submitting an empty form shows every message and sends nothing', async () => {
    const { user, onSubmit } = setup();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('required')).toBeInTheDocument();
    expect(screen.getByText('Pls enter your password')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits trimmed credentials and then resets the form', async () => {
    const { user, onSubmit, email, password } = setup();
    await user.type(email, ' admin@rewardclub.ng ');
    await user.type(password, 'RewardClub#2026');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ email: 'admin@rewardclub.ng', password: 'RewardClub#2026' }),
    );
    await waitFor(() => expect(email).toHaveValue(''));
    expect(password).toHaveValue('');
    expect(screen.queryByText('required')).not.toBeInTheDocument();
  });

  it('toggles the password visibility with an accessible button', async () => {
    const { user, password } = setup();
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('replaces the button by a spinner while signing in', () => {
    setup(true);
    expect(screen.getByRole('status', { name: 'Signing in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
  });
});
