import type { QueryClient } from '@tanstack/react-query';
import type { SessionActor } from '../machines/session.machine';

/** What every route receives: the query cache and the one app-wide session actor. */
export interface RouterContext {
  queryClient: QueryClient;
  session: SessionActor;
}
