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

  it('submits trimmed credentials, then clears the password and keeps the email (issue 22)', async () => {
    const { user, onSubmit, email, password } = setup();
    await user.type(email, ' admin@rewardclub.ng ');
    await user.type(password, 'RewardClub#2026');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ email: 'admin@rewardclub.ng', password: 'RewardClub#2026' }),
    );
    await waitFor(() => expect(password).toHaveValue(''));
    expect(email).toHaveValue('admin@rewardclub.ng');
    expect(screen.queryByText('required')).not.toBeInTheDocument();
    expect(screen.queryByText('Pls enter your password')).not.toBeInTheDocument();
  });

  it('after a refused sign-in (the call ends on this screen) focus goes to the password', async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(<SignInForm onSubmit={onSubmit} submitting={false} />);
    await user.type(screen.getByLabelText('Email'), 'admin@rewardclub.ng');
    await user.type(screen.getByLabelText('Password'), 'Wrong#2026');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    rerender(<SignInForm onSubmit={onSubmit} submitting={true} />);
    rerender(<SignInForm onSubmit={onSubmit} submitting={false} />);
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(screen.getByLabelText('Email')).toHaveValue('admin@rewardclub.ng');
  });

  it('shows no error while the first characters of an untouched field are typed, only once it is left', async () => {
    const { user, email } = setup();
    await user.type(email, 'adm');
    expect(screen.queryByText('pls provide a valid email')).not.toBeInTheDocument();
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await user.tab();
    expect(await screen.findByText('pls provide a valid email')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email.getAttribute('aria-describedby') ?? '').toContain(
      screen.getByText('pls provide a valid email').id,
    );
  });

  it('an invalid submit moves focus to the first invalid field', async () => {
    const { user, password } = setup();
    await user.type(password, 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('required')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus());
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
