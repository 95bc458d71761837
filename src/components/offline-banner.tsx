import { css } from '../../styled-system/css';
import { type NetworkStatus, useNetworkStatus } from '../lib/network-status';

export const OFFLINE_TEXT =
  'You are offline. Saved data is shown where there is some; it may be out of date.';
export const UNREACHABLE_TEXT =
  'The server cannot be reached. Saved data is shown where there is some; it may be out of date.';

const TEXT: Record<Exclude<NetworkStatus, 'online'>, string> = {
  offline: OFFLINE_TEXT,
  unreachable: UNREACHABLE_TEXT,
};

/** App-wide, above every screen: says when the network is gone. */
export function OfflineBanner() {
  const status = useNetworkStatus();
  if (status === 'online') return null;
  return (
    <div
      role="status"
      data-network={status}
      className={css({
        position: 'sticky',
        top: '0',
        zIndex: 'banner',
        px: { base: '4', md: '8' },
        py: '2',
        fontSize: 'sm',
        fontWeight: 'medium',
        textAlign: 'center',
        color: 'amber.950',
        bg: 'amber.100',
        borderBottomWidth: '1px',
        borderColor: 'amber.300',
      })}
    >
      {TEXT[status]}
    </div>
  );
}
