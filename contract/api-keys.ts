import { idField } from './ids';
import type { PermissionName } from './permissions';
import { z } from './zod';

/**
 * Partner API keys (issue 21, docs/decisions/028-partner-api-keys.md): a partner's till or booking
 * system calls the API with `X-Api-Key: rck_<prefix>_<secret>` instead of a signed-in person. The key
 * acts as its partner only, with the permissions it was given (chosen from API_KEY_PERMISSIONS).
 */
export const API_KEY_HEADER = 'X-Api-Key';

/** What a partner key may hold: the partner-scoped calls a till makes (never staff, roles, settings or keys). */
export const API_KEY_PERMISSIONS = [
  'visits.create',
  'visits.view',
  'clients.view',
  'rewards.view',
  'rewards.issue',
  'rewards.redeem',
  'rewards.reverse',
] as const satisfies readonly PermissionName[];
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

/** Active keys one partner may hold at once. */
export const MAX_API_KEYS_PER_PARTNER = 25;

export const apiKeyMessages = {
  nameRequired: 'Enter a name for the key',
  permissionsRequired: 'Choose at least one permission',
  permissionNotHeld: 'You cannot give a key a permission you do not hold',
  tooMany: `A partner can hold at most ${MAX_API_KEYS_PER_PARTNER} keys; revoke one first`,
  notFound: 'API key not found',
  created: 'API key created. Copy it now: it is not shown again.',
  revoked: 'API key revoked',
} as const;

/** POST /admin/partners/{partnerId}/api-keys */
export const createApiKeyBodySchema = z.object({
  name: z
    .string({ error: apiKeyMessages.nameRequired })
    .check(
      z.trim(),
      z.minLength(1, { error: apiKeyMessages.nameRequired }),
      z.maxLength(100, { error: 'name must be at most 100 characters' }),
    ),
  permissions: z
    .array(
      z.enum(API_KEY_PERMISSIONS, {
        error: `permissions must be among ${API_KEY_PERMISSIONS.join(', ')}`,
      }),
      { error: apiKeyMessages.permissionsRequired },
    )
    .check(
      z.minLength(1, { error: apiKeyMessages.permissionsRequired }),
      z.maxLength(API_KEY_PERMISSIONS.length * 2, { error: 'Too many permissions' }),
    ),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

export const apiKeyParamSchema = z.object({
  partnerId: idField('partnerId'),
  keyId: idField('keyId'),
});

/** A key as listed: never its secret. */
export const apiKeySchema = z.object({
  id: z.int(),
  partnerId: z.int(),
  name: z.string(),
  /** The public part of the key (`rck_<prefix>_...`), to tell keys apart. */
  prefix: z.string(),
  permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
  createdAt: z.string(),
  /** The last call made with it; null: never used. */
  lastUsedAt: z.nullable(z.string()),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer of the create call: the key and its full value, shown this once. */
export const createdApiKeySchema = z.extend(apiKeySchema, { key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
