import { eq } from 'drizzle-orm';
import { files } from '../db/schema';
import { ApiError } from '../errors';
import type { RouteContext } from '../http/context';
import { FILE_NOT_FOUND, routeSet } from '../http/route';

/** Uploaded images by content hash: immutable, so cached for a year. */
export function fileRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  const notFound = () => new ApiError(404, FILE_NOT_FOUND);
  return routeSet(guards).on('GET /files/{hash}', async (c) => {
    const hash = c.req.valid('param').hash.toLowerCase();
    const etag = `"${hash}"`;
    const headers = {
      ETag: etag,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    };
    const inm = c.req.header('if-none-match');
    if (inm?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      const [exists] = await db.select({ hash: files.hash }).from(files).where(eq(files.hash, hash));
      if (exists) return c.body(null, 304, headers);
    }
    const [file] = await db
      .select({ mime: files.mime, bytes: files.bytes })
      .from(files)
      .where(eq(files.hash, hash));
    if (!file) throw notFound();
    return c.body(new Uint8Array(file.bytes), 200, { ...headers, 'Content-Type': file.mime });
  }).router;
}
