import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  type AnyRoute,
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createActor, fromPromise } from 'xstate';
import type { LoginResponse } from '../../contract/auth';
import type { PermissionName } from '../../contract/permissions';
import type { Profile } from '../../contract/profile';
import { createApiClient, setApiClient } from '../../src/api/client';
import { sessionMachine } from '../../src/machines/session.machine';
import type { RouterContext } from '../../src/routes/-router-context';

export const envelope = (data: unknown, status = 200, message = '') =>
  new Response(JSON.stringify({ success: status < 400, data, message, errors: [] }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
export const listEnvelope = (records: unknown[]) =>
  envelope({ records, meta: { totalCount: records.length, pageNumber: 1, pageSize: 10 } });

/** A server answering `answer(method, path)` (a Response, or 404 'not faked'); every call is recorded. */
export function fakeApi(answer: (method: string, path: string, url: URL) => Response | undefined) {
  const calls: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}`);
    return answer(method, url.pathname, url) ?? envelope(null, 404, 'not faked');
  };
  setApiClient(
    createApiClient({ tokens: { accessToken: async () => 'a', rejected: async () => null }, fetch }),
  );
  return calls;
}

export interface AppUser {
  permissions: PermissionName[];
  partnerId?: number | null;
}

/** The signed-in session actor of a user with these permissions (at a partner when partnerId is set). */
export function signedInActor({ permissions, partnerId = null }: AppUser) {
  const session: LoginResponse = {
    accessToken: 'a',
    refreshToken: 'r',
    user: {
      id: 1,
      email: 'staff@rewardclub.ng',
      firstName: 'Ada',
      lastName: 'Obi',
      userType: partnerId ? 'PARTNER' : 'ADMIN',
      partnerId,
      role: null,
      permissions,
    },
  };
  return createActor(
    sessionMachine.provide({
      actors: { fetchProfile: fromPromise<Profile, void>(() => new Promise(() => {})) },
    }),
    { input: { restored: session } },
  ).start();
}

/**
 * Renders `ui` inside a memory router (at `path`) with a query client and a signed-in session, as
 * the app does; `routes` adds destinations (path → text shown there).
 */
export async function renderInApp(
  ui: ReactNode,
  user: AppUser,
  { path = '/', routes = {} }: { path?: string; routes?: Record<string, string> } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRouteWithContext<RouterContext>()({ component: Outlet });
  const screen = createRoute({ getParentRoute: () => root, path: path.split('?')[0]!, component: () => ui });
  const others: AnyRoute[] = Object.entries(routes).map(([to, text]) =>
    createRoute({ getParentRoute: () => root, path: to, component: () => <p>{text}</p> }),
  );
  const router = createRouter({
    routeTree: root.addChildren([screen, ...others]),
    history: createMemoryHistory({ initialEntries: [path] }),
    context: { queryClient, session: signedInActor(user) },
  });
  await router.load();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}
