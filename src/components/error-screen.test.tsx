import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ERROR_SCREEN_HOME, ERROR_SCREEN_TITLE, ErrorScreen } from './error-screen';

describe('ErrorScreen (the router default error component)', () => {
  it("is branded with a way home, never the bare 'Something went wrong!'", async () => {
    const root = createRootRoute();
    const broken = createRoute({
      getParentRoute: () => root,
      path: '/broken',
      loader: (): string => {
        throw new Error('broken');
      },
      component: () => <p>never</p>,
    });
    const router = createRouter({
      routeTree: root.addChildren([broken]),
      history: createMemoryHistory({ initialEntries: ['/broken?x=1'] }),
      defaultErrorComponent: ErrorScreen,
    });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: ERROR_SCREEN_TITLE })).toBeInTheDocument();
    expect(screen.getByText('Reward Club - Admin')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: ERROR_SCREEN_HOME })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong!')).not.toBeInTheDocument();
  });
});
