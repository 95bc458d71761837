/** Images the server accepts (DESIGN section 2): PNG, JPEG or WebP, at most 5 MiB decoded. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TOO_LARGE = 'Image must be at most 5 MiB';

const EXTENSIONS = /\.(png|jpe?g|webp)$/i;

/**
 * True for a file the server will take as an image: its type is PNG, JPEG or WebP (or, when the
 * browser reports no type, its name says so). The server checks the bytes again.
 */
export function isImageFile(file: Pick<File, 'type' | 'name'>): boolean {
  if (file.type) return (IMAGE_TYPES as readonly string[]).includes(file.type);
  return EXTENSIONS.test(file.name);
}
