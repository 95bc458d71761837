import { css, cx } from '../../styled-system/css';
import { ApiError } from '../api/client';
import { queryErrorMessage } from '../lib/error-message';

export const NOT_AVAILABLE_OFFLINE = 'Not available offline';

/** No answer (status 0) and nothing saved on this device for the screen. */
export const isUnanswered = (error: unknown): boolean => error instanceof ApiError && error.status === 0;

const looks = {
  /** In a page's body, where the screen would be. */
  text: css({ color: 'red.700' }),
  /** In a card or a field, beside smaller text. */
  small: css({ fontSize: 'sm', color: 'red.700' }),
  /** Above other content that still shows: a tinted box. */
  banner: css({ color: 'red.700', bg: 'red.50', px: '4', py: '3', borderRadius: 'md' }),
};

/**
 * A failed data query, in the words of docs/product.md#errors (`queryErrorMessage`), read out as an
 * alert; one that got no answer and has nothing saved on this device says 'Not available offline'
 * (issue 32 item 8), not 'Network Error'.
 */
export function QueryErrorText({
  error,
  look = 'text',
  className,
}: {
  error: unknown;
  look?: keyof typeof looks;
  /** Where it sits (a margin). */
  className?: string;
}) {
  return (
    <p role="alert" className={cx(looks[look], className)}>
      {isUnanswered(error) ? NOT_AVAILABLE_OFFLINE : queryErrorMessage(error)}
    </p>
  );
}
