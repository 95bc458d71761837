import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from '../../contract/images';

/** Images the server accepts (docs/product.md#data): PNG, JPEG or WebP, at most 5 MiB decoded. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

const EXTENSIONS = /\.(png|jpe?g|webp)$/i;

/**
 * True for a file the server will take as an image: its type is PNG, JPEG or WebP (or, when the
 * browser reports no type, its name says so). The server checks the bytes again.
 */
export function isImageFile(file: Pick<File, 'type' | 'name'>): boolean {
  if (file.type) return (IMAGE_TYPES as readonly string[]).includes(file.type);
  return EXTENSIONS.test(file.name);
}

export const IMAGE_NOT_IMAGE = 'Choose a PNG, JPEG or WebP image';

/** Why a chosen file cannot be uploaded (checked before any upload), or null when it can. */
export function imageFileProblem(file: Pick<File, 'type' | 'name' | 'size'>): string | null {
  if (!isImageFile(file)) return IMAGE_NOT_IMAGE;
  return file.size > MAX_IMAGE_BYTES ? IMAGE_TOO_LARGE : null;
}
