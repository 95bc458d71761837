import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { appSettings } from '../db/schema';
import { newJwtSecret } from './tokens';

const JWT_SECRET_KEY = 'jwt_secret';

/**
 * The configured JWT secret, or one generated on first start and kept in app_settings, so that every
 * instance on the same database signs and accepts the same tokens (first writer wins).
 */
export async function resolveJwtSecret(db: DbOrTx, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db.insert(appSettings).values({ key: JWT_SECRET_KEY, value: newJwtSecret() }).onConflictDoNothing();
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, JWT_SECRET_KEY));
  if (!row) throw new Error('Could not read the JWT secret from app_settings');
  return row.value;
}
