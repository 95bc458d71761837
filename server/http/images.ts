import { decodeImage } from '../domain/images';
import { fieldError } from '../errors';

/**
 * A base64 image field, checked (magic bytes PNG/JPEG/WebP, 5 MiB decoded): a wrong type or bad
 * base64 is a 400 on the field (with `notImage` as the message when given), too large a 413.
 */
export function imageField(fieldName: string, base64: string, notImage?: string) {
  const decoded = decodeImage(base64);
  if (decoded.ok) return decoded;
  if (decoded.reason === 'size') throw fieldError(fieldName, decoded.message, 413);
  throw fieldError(fieldName, notImage ?? decoded.message);
}
