import { type Visit, visitReviewFlagLabels, visitReviewStateLabels } from '../../contract/visits';
import { css } from '../../styled-system/css';
import { formatNaira } from '../lib/format';
import { Badge } from './ui/badge';
import { ImageMagnifier } from './ui/image-magnifier';

/** The items bought on a visit: name, quantity x price. */
export function VisitItems({
  items,
  label = 'Items bought',
}: {
  items: Visit['visitItems'];
  label?: string;
}) {
  if (items.length === 0)
    return <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No items recorded.</p>;
  return (
    <ul
      aria-label={label}
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '1.5',
        divideY: '1px',
        divideColor: 'border.default',
      })}
    >
      {items.map((item) => (
        <li
          key={item.id}
          className={css({
            display: 'flex',
            justifyContent: 'space-between',
            gap: '4',
            fontSize: 'sm',
            py: '1.5',
          })}
        >
          <span>{item.name}</span>
          <span className={css({ color: 'fg.muted', whiteSpace: 'nowrap' })}>
            {item.quantity} x {formatNaira(item.price)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The receipt image (enlarges in the magnifier), or a note that there is none. */
export function ReceiptImage({ src }: { src: string | null }) {
  if (!src) return <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No receipt image.</p>;
  return <ImageMagnifier src={src} alt="Receipt image" />;
}

const REVIEW_TONES = { approved: 'success', waiting: 'warning', rejected: 'danger' } as const;

/** A visit's review state (decision 075): counted, waiting for review, or rejected. */
export function ReviewStateBadge({ review }: { review: Visit['review'] }) {
  return <Badge tone={REVIEW_TONES[review.state]}>{visitReviewStateLabels[review.state]}</Badge>;
}

/** Why a visit was flagged, and the reviewer's reason of a rejection. */
export function ReviewReasons({ review }: { review: Visit['review'] }) {
  if (review.flags.length === 0 && !review.reason) return null;
  return (
    <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm' })}>
      {review.flags.map((f) => (
        <li key={f}>{visitReviewFlagLabels[f]}</li>
      ))}
      {review.reason ? (
        <li>
          <strong>Reason:</strong> {review.reason}
        </li>
      ) : null}
    </ul>
  );
}
