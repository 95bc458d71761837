import { z } from './zod';

/**
 * The one image limit (issue 22): the server's decoder, the browser's check before upload and the
 * helper text under every image field read it. docs/product.md gives no size; 5 MiB is what the server
 * always decoded (docs/product.md#data).
 */
export const MAX_IMAGE_MIB = 5;
export const MAX_IMAGE_BYTES = MAX_IMAGE_MIB * 1024 * 1024;
export const IMAGE_TOO_LARGE = `Image must be at most ${MAX_IMAGE_MIB} MiB`;
/** The helper text of an image field. */
export const IMAGE_HELPER_TEXT = `PNG, JPEG or WebP, at most ${MAX_IMAGE_MIB} MiB`;

/**
 * The longest base64 text of an image field: the largest image's base64 (4 characters per 3 bytes)
 * with room for a data-URL prefix. Over it, the field is refused before decoding.
 */
export const MAX_IMAGE_BASE64 = 7_000_000;

/** A base64 image field's text, refused over MAX_IMAGE_BASE64 with IMAGE_TOO_LARGE. */
export const imageBase64Text = () =>
  z.string().check(z.maxLength(MAX_IMAGE_BASE64, { error: IMAGE_TOO_LARGE }));
