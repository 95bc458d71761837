import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PNG_BASE64, setupTestServer } from '../../tests/setup/server';
import { files } from '../db/schema';
import { storeFile } from './images';

/**
 * Uploaded images are content-addressed (decision 005): stored once by the SHA-256 of their bytes,
 * inside the change's transaction, and served at /api/v1/files/<hash>.
 */
const t = setupTestServer();

describe('storeFile', () => {
  it('keeps the bytes once by their hash, with their type and size, and answers the URL that serves them', async () => {
    const bytes = Buffer.from(PNG_BASE64, 'base64');
    const hash = createHash('sha256').update(bytes).digest('hex');
    const url = await storeFile(t.db, bytes, 'image/png', t.clock());
    expect(url).toBe(`/api/v1/files/${hash}`);
    // The same bytes again: the same URL, no second row, the first row unchanged.
    expect(
      await storeFile(t.db, Buffer.from(bytes), 'image/webp', new Date(t.clock().getTime() + 1000)),
    ).toBe(url);
    const rows = await t.db.select().from(files);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ hash, mime: 'image/png', size: bytes.length, createdAt: t.clock() });
    expect(Buffer.from(rows[0]!.bytes)).toEqual(bytes);

    const served = await t.request('GET', `/files/${hash}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });
});
