import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../contract/images';
import { decodeImage, detectImageMime } from './images';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 0]);
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP')]);

describe('images', () => {
  it('detects PNG, JPEG and WebP by magic bytes only', () => {
    expect(detectImageMime(png)).toBe('image/png');
    expect(detectImageMime(jpeg)).toBe('image/jpeg');
    expect(detectImageMime(webp)).toBe('image/webp');
    expect(detectImageMime(Buffer.from('GIF89a'))).toBeNull();
    expect(detectImageMime(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageMime(new Uint8Array())).toBeNull();
  });

  it('decodes base64, tolerating a data-URL prefix and line breaks', () => {
    const b64 = png.toString('base64');
    expect(decodeImage(b64)).toMatchObject({ ok: true, mime: 'image/png' });
    expect(decodeImage(`data:image/png;base64,${b64}`)).toMatchObject({ ok: true, mime: 'image/png' });
    expect(decodeImage(`${b64.slice(0, 4)}\n${b64.slice(4)}`)).toMatchObject({ ok: true });
  });

  it('rejects bad base64, wrong types and more than 5 MiB', () => {
    expect(decodeImage('')).toMatchObject({ ok: false, reason: 'base64' });
    expect(decodeImage('***')).toMatchObject({ ok: false, reason: 'base64' });
    expect(decodeImage(Buffer.from('hello world').toString('base64'))).toMatchObject({
      ok: false,
      reason: 'type',
    });
    const big = Buffer.concat([png, Buffer.alloc(MAX_IMAGE_BYTES)]).toString('base64');
    expect(decodeImage(big)).toMatchObject({
      ok: false,
      reason: 'size',
      message: 'Image must be at most 5 MiB',
    });
    const exact = Buffer.concat([png, Buffer.alloc(MAX_IMAGE_BYTES - png.length)]).toString('base64');
    expect(decodeImage(exact)).toMatchObject({ ok: true });
  });
});
