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

describe('image types by their first bytes', () => {
  it('a PNG is its whole 8-byte signature: any byte of it changed is no PNG', () => {
    const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    expect(detectImageMime(Uint8Array.from(signature))).toBe('image/png');
    expect(detectImageMime(Uint8Array.from(signature.slice(0, 7)))).toBeNull();
    for (let i = 0; i < signature.length; i++) {
      const changed = [...signature];
      changed[i] = (changed[i]! + 1) % 256;
      expect(detectImageMime(Uint8Array.from(changed)), `byte ${i}`).toBeNull();
    }
  });

  it('a JPEG is FF D8 FF: any byte of it changed is no JPEG; two bytes are too few', () => {
    const signature = [0xff, 0xd8, 0xff];
    expect(detectImageMime(Uint8Array.from(signature))).toBe('image/jpeg');
    expect(detectImageMime(Uint8Array.from([0xff, 0xd8]))).toBeNull();
    for (let i = 0; i < signature.length; i++) {
      const changed = [...signature];
      changed[i] = 0x00;
      expect(detectImageMime(Uint8Array.from(changed)), `byte ${i}`).toBeNull();
    }
  });

  it('a WebP is RIFF, four bytes of size, then WEBP: each of the two words must be whole', () => {
    const size = Buffer.from([1, 2, 3, 4]);
    expect(detectImageMime(Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEBP')]))).toBe(
      'image/webp',
    );
    expect(detectImageMime(Buffer.concat([Buffer.from('RIFX'), size, Buffer.from('WEBP')]))).toBeNull();
    expect(detectImageMime(Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WAVE')]))).toBeNull();
    expect(detectImageMime(Buffer.concat([Buffer.from('RIFF'), size, Buffer.from('WEB')]))).toBeNull();
  });
});

describe('decoding an image', () => {
  it('answers the bytes and the type', () => {
    const decoded = decodeImage(jpeg.toString('base64'));
    expect(decoded).toEqual({ ok: true, bytes: jpeg, mime: 'image/jpeg' });
  });

  it('spaces, tabs and line breaks anywhere are ignored; a data-URL prefix of any image type is tolerated', () => {
    const b64 = webp.toString('base64');
    expect(decodeImage(` ${b64.slice(0, 3)}\t${b64.slice(3, 9)}\r\n${b64.slice(9)} `)).toMatchObject({
      ok: true,
      mime: 'image/webp',
    });
    expect(decodeImage(`data:image/svg+xml;base64,${png.toString('base64')}`)).toMatchObject({
      ok: true,
      mime: 'image/png',
    });
  });

  it('URL-safe base64 is read too', () => {
    // 0xfb 0xff ... spell "-" and "_" in URL-safe base64.
    const bytes = Buffer.concat([jpeg, Buffer.from([0xfb, 0xef, 0xff])]);
    const urlSafe = bytes.toString('base64url');
    expect(urlSafe).toMatch(/[-_]/);
    expect(decodeImage(urlSafe)).toEqual({ ok: true, bytes, mime: 'image/jpeg' });
  });

  it('base64 with padding in the middle, three padding characters or other characters is refused as base64', () => {
    const b64 = png.toString('base64');
    for (const bad of [
      // A data-URL prefix is tolerated at the start only.
      `QUFB data:image/png;base64,${b64}`,
      `${b64}===`,
      `AB=C${b64}`,
      `${b64}!`,
      `${b64.slice(0, 4)}.${b64.slice(4)}`,
      ' \n ',
    ])
      expect(decodeImage(bad), JSON.stringify(bad)).toEqual({
        ok: false,
        reason: 'base64',
        message: expect.stringMatching(/^Image .*base64/),
      });
  });

  it('a file of another type is refused with the types allowed', () => {
    // Decision 005: PNG, JPEG or WebP, told by their magic bytes.
    const refused = decodeImage(Buffer.from('GIF89a-----').toString('base64'));
    expect(refused).toMatchObject({ ok: false, reason: 'type' });
    if (!refused.ok) for (const type of ['PNG', 'JPEG', 'WebP']) expect(refused.message).toContain(type);
  });

  it('5 MiB and one byte is too large, whatever its type', () => {
    const over = Buffer.concat([png, Buffer.alloc(MAX_IMAGE_BYTES + 1 - png.length)]);
    expect(decodeImage(over.toString('base64'))).toEqual({
      ok: false,
      reason: 'size',
      message: 'Image must be at most 5 MiB',
    });
  });
});
