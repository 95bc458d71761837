import { waitFor } from 'xstate';
import type { TokenSource } from '../api/client';
import type { SessionActor } from './session.machine';

/** Something the session passes through before a token can be handed out. */
const settled = (actor: SessionActor) =>
  waitFor(
    actor,
    (s) => !s.matches({ signedIn: 'refreshing' }) && !s.matches('signingOut') && !s.matches('ending'),
  );

/**
 * Connects the HTTP client to the session actor: the client asks for the token and,
 * on a 401, reports it with `token.rejected` and waits for the outcome of the (single) refresh.
 */
export function sessionTokenSource(actor: SessionActor): TokenSource {
  // Counts ended sessions, so the client can drop a response that arrives after its session ended.
  let ended = 0;
  actor.on('session.ended', () => {
    ended += 1;
  });
  return {
    async accessToken() {
      const snapshot = await settled(actor);
      return snapshot.context.session?.accessToken ?? null;
    },
    async rejected(token) {
      actor.send({ type: 'token.rejected', token });
      const snapshot = await settled(actor);
      // The refresh got no answer: still signed in, but offline for now (issue 17).
      if (snapshot.matches({ signedIn: 'linkDown' })) return 'offline';
      const next = snapshot.matches('signedIn') ? (snapshot.context.session?.accessToken ?? null) : null;
      // The same token again means nothing changed: retrying would only fail again.
      return next && next !== token ? next : null;
    },
    epoch: () => ended,
  };
}
