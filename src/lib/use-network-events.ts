import { useEffect } from 'react';

/** Forwards the browser's online/offline events to a flow actor (money steps refuse offline; the outbox sends when back online). */
export function useNetworkEvents(actor: {
  send: (event: { type: 'network.online' | 'network.offline' }) => void;
}) {
  useEffect(() => {
    const online = () => actor.send({ type: 'network.online' });
    const offline = () => actor.send({ type: 'network.offline' });
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  }, [actor]);
}
