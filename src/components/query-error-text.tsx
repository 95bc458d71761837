import { css, cx } from '../../styled-system/css';
import { queryErrorMessage } from '../lib/error-message';

const looks = {
  /** In a page's body, where the screen would be. */
  text: css({ color: 'red.700' }),
  /** In a card or a field, beside smaller text. */
  small: css({ fontSize: 'sm', color: 'red.700' }),
  /** Above other content that still shows: a tinted box. */
  banner: css({ color: 'red.700', bg: 'red.50', px: '4', py: '3', borderRadius: 'md' }),
};

/** A failed data query, in the words of docs/product.md#errors (`queryErrorMessage`), read out as an alert. */
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
      {queryErrorMessage(error)}
    </p>
  );
}
