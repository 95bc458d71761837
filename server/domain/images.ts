import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from '../../contract/images';
import type { DbOrTx } from '../db/client';
import { files } from '../db/schema';
import { sha256Hex } from './tokens';

export const IMAGE_BAD_TYPE = 'Image must be a PNG, JPEG or WebP file';
export const IMAGE_BAD_BASE64 = 'Image must be base64-encoded';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

/** The image type from its first bytes (not from what the client claims). */
export function detectImageMime(bytes: Uint8Array): ImageMime | null {
  const b = bytes;
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (
    b.length >= 12 &&
    String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!) === 'RIFF' &&
    String.fromCharCode(b[8]!, b[9]!, b[10]!, b[11]!) === 'WEBP'
  )
    return 'image/webp';
  return null;
}

export type DecodedImage =
  | { ok: true; bytes: Buffer; mime: ImageMime }
  | { ok: false; reason: 'base64' | 'type' | 'size'; message: string };

/** base64 (a data-URL prefix is tolerated) → checked bytes: valid base64, at most 5 MiB, PNG/JPEG/WebP. */
export function decodeImage(input: string): DecodedImage {
  const body = input.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  if (body.length === 0 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(body)) {
    return { ok: false, reason: 'base64', message: IMAGE_BAD_BASE64 };
  }
  if (Math.floor((body.length * 3) / 4) - 2 > MAX_IMAGE_BYTES)
    return { ok: false, reason: 'size', message: IMAGE_TOO_LARGE };
  const bytes = Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) return { ok: false, reason: 'size', message: IMAGE_TOO_LARGE };
  const mime = detectImageMime(bytes);
  if (!mime) return { ok: false, reason: 'type', message: IMAGE_BAD_TYPE };
  return { ok: true, bytes, mime };
}

export const fileUrl = (hash: string) => `/api/v1/files/${hash}`;

/** Stores bytes once by content hash; returns the URL that serves them. */
export async function storeFile(db: DbOrTx, bytes: Buffer, mime: string, now: Date): Promise<string> {
  const hash = sha256Hex(bytes);
  await db
    .insert(files)
    .values({ hash, mime, size: bytes.length, bytes, createdAt: now })
    .onConflictDoNothing();
  return fileUrl(hash);
}
