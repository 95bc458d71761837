import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { fileHashParamSchema } from '../../contract/api';
import { files } from '../db/schema';
import type { AppEnv, RouteContext } from '../http/context';
import { ApiError } from '../http/errors';
import { pathParams } from '../http/validate';

const NOT_FOUND = 'File not found';

/** Uploaded images by content hash: immutable, so cached for a year. */
export function fileRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  const notFound = () => new ApiError(404, NOT_FOUND);
  return new Hono<AppEnv>().get(
    '/:hash',
    guards.publicRoute(),
    pathParams(fileHashParamSchema, notFound),
    async (c) => {
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
    },
  );
}
