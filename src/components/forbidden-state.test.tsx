import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { ForbiddenError } from '../lib/permissions';
import { requirePermission, requireSuperAdmin } from '../lib/use-can';
import { ForbiddenState, isForbidden, RouteErrorState } from './forbidden-state';

const sessionWith = (permissions: string[]) => ({
  session: {
    getSnapshot: () => ({ context: { session: { user: { permissions } } } }),
  } as never,
});

describe('Not allowed state', () => {
  it("says 'Not allowed' and why", () => {
    render(<ForbiddenState />);
    expect(screen.getByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to view this page.")).toBeInTheDocument();
  });

  it('is what a route shows for a missing permission or an API 403, and other errors show their message', () => {
    expect(isForbidden(new ForbiddenError('staff.view'))).toBe(true);
    expect(isForbidden(new ApiError(403, 'You do not have permission to do this'))).toBe(true);
    expect(isForbidden(new ApiError(409, 'Conflict'))).toBe(false);
    const { unmount } = render(<RouteErrorState error={new ApiError(403, 'nope')} reset={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    unmount();
    render(<RouteErrorState error={new ApiError(500, 'Database is down')} reset={() => {}} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Database is down');
  });

  it('the route guard lets a user with any of the permissions through and stops the others', () => {
    const guard = requirePermission('staff.view', 'roles.view');
    expect(() => guard({ context: sessionWith(['roles.view']) })).not.toThrow();
    expect(() => guard({ context: sessionWith(['activities.view']) })).toThrow(ForbiddenError);
    expect(() =>
      guard({ context: { session: { getSnapshot: () => ({ context: { session: null } }) } as never } }),
    ).toThrow(ForbiddenError);
  });

  it("a Super Admin's screen tells another user that only a Super Admin opens it, not to ask for a permission", () => {
    const guard = requireSuperAdmin('integrations.manage');
    // A role with every permission, not the built-in Super Admin's.
    const holder = {
      session: {
        getSnapshot: () => ({
          context: {
            session: {
              user: { permissions: ['integrations.manage'], role: { builtIn: false }, partnerId: null },
            },
          },
        }),
      } as never,
    };
    let error: unknown;
    try {
      guard({ context: holder });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ForbiddenError);
    render(<RouteErrorState error={error as Error} reset={() => {}} />);
    expect(screen.getByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.getByText('Only a Super Admin can open this page.')).toBeInTheDocument();
    expect(screen.queryByText('Ask an administrator to give your role the permission.')).toBeNull();
  });
});
