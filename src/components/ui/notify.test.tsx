import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LazyToaster } from './lazy-toaster';
import { notify } from './notify';

describe('notify and LazyToaster', () => {
  it('renders nothing until a toast is asked for, then loads the toaster and shows it', async () => {
    const { container } = render(<LazyToaster />);
    expect(container).toBeEmptyDOMElement();
    notify.success('Partner saved');
    notify.error('Could not save the partner');
    expect(await screen.findByText('Partner saved')).toBeInTheDocument();
    expect(await screen.findByText('Could not save the partner')).toBeInTheDocument();
  });
});
