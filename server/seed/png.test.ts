import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../domain/images';
import { solidPng } from './png';

describe('solidPng', () => {
  it('is a PNG the image checks accept, with the size and pixels asked for', () => {
    const png = solidPng(4, 3, [200, 30, 40]);
    const decoded = decodeImage(png.toString('base64'));
    expect(decoded).toMatchObject({ ok: true, mime: 'image/png' });
    expect(png.readUInt32BE(16)).toBe(4);
    expect(png.readUInt32BE(20)).toBe(3);
    const idatLength = png.readUInt32BE(33);
    const pixels = inflateSync(png.subarray(41, 41 + idatLength));
    expect([...pixels.subarray(0, 4)]).toEqual([0, 200, 30, 40]);
  });
});
