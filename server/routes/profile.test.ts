import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../contract/auth';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import { PASSWORD_UNCHANGED_MESSAGE, type Profile, profileSchema } from '../../contract/profile';
import {
  createRole,
  createSuperAdmin,
  createUser,
  setupTestServer,
  signIn,
  type Tokens,
} from '../../tests/setup/server';
import { events, files } from '../db/schema';
import { actions } from '../domain/events';

const t = setupTestServer();
let admin: Awaited<ReturnType<typeof createSuperAdmin>>;
let tokens: Tokens;

/** A real 1x1 PNG. */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const WEBP_HEAD = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);

beforeAll(async () => {
  admin = await createSuperAdmin(t.db);
  tokens = await signIn(t, admin.email, admin.password);
});

const patch = (json: unknown, token = tokens.accessToken) =>
  t.request<Profile>('PATCH', '/user/profile', { json, token });

describe('GET /user/profile', () => {
  it('returns the profile of the signed-in user', async () => {
    const res = await t.request<Profile>('GET', '/user/profile', { token: tokens.accessToken });
    expect(res.status).toBe(200);
    const profile = profileSchema.parse(res.body.data);
    expect(profile).toMatchObject({
      id: admin.id,
      email: admin.email,
      firstName: 'Ada',
      lastName: 'Root',
      userType: 'ADMIN',
    });
    expect(profile.role?.name).toBe('Super Admin');
    // The SPA's session takes the role from the profile: it must still say the Super Admin (issue 27).
    expect(profile.role?.builtIn).toBe(true);
    const role = await createRole(t.db, 'Holds everything', [...ALL_PERMISSION_NAMES]);
    const other = await createUser(t.db, { roleId: role.id });
    const theirs = await t.request<Profile>('GET', '/user/profile', {
      token: (await signIn(t, other.email, other.password)).accessToken,
    });
    expect(theirs.body.data?.role).toMatchObject({ name: 'Holds everything', builtIn: false });
  });

  it('needs a token', async () => {
    expect((await t.request('GET', '/user/profile')).status).toBe(401);
  });
});

describe('PATCH /user/profile', () => {
  it('changes only the fields sent, and logs it', async () => {
    const res = await patch({ firstName: 'Adaeze', address: '12 Adeola Odeku Street, Lagos' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      firstName: 'Adaeze',
      lastName: 'Root',
      address: '12 Adeola Odeku Street, Lagos',
    });
    const [event] = await t.db.select().from(events).where(eq(events.action, actions.profileUpdated));
    expect(event?.payload).toEqual({ fields: ['firstName', 'address'] });
    expect(event?.actorName).toBe('Adaeze Root');
  });

  it('an empty body changes nothing', async () => {
    const res = await patch({});
    expect(res.status).toBe(200);
    expect(res.body.data?.firstName).toBe('Adaeze');
  });

  it('rejects unknown fields, wrong types and empty names with per-field errors', async () => {
    const res = await patch({ firstName: 42, lastName: '  ', email: 'x@y.z' });
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e) => e.fieldName).sort();
    expect(fields).toEqual(['email', 'firstName', 'lastName']);
    expect(res.body.errors.find((e) => e.fieldName === 'lastName')?.message).toBe(
      'Last name cannot be empty',
    );
  });

  it('stores an image once by hash and serves it with long caching', async () => {
    const res = await patch({ profileImage: PNG_1X1 });
    expect(res.status).toBe(200);
    const url = res.body.data!.imageUrl!;
    expect(url).toMatch(/^\/api\/v1\/files\/[0-9a-f]{64}$/);
    expect(res.body.data!.profileImage).toBe(url);
    await patch({ profileImage: PNG_1X1 });
    expect(await t.db.select({ hash: files.hash }).from(files)).toHaveLength(1);

    const file = await t.app.request(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const hash = url.split('/').at(-1);
    expect(file.headers.get('etag')).toBe(`"${hash}"`);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from(PNG_1X1, 'base64'));
    const cached = await t.app.request(url, { headers: { 'if-none-match': `"${hash}"` } });
    expect(cached.status).toBe(304);
    expect((await t.app.request(`/api/v1/files/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await t.app.request('/api/v1/files/not-a-hash')).status).toBe(404);
  });

  it('accepts JPEG and WebP by their magic bytes', async () => {
    for (const [head, mime] of [
      [JPEG_HEAD, 'image/jpeg'],
      [WEBP_HEAD, 'image/webp'],
    ] as const) {
      const res = await patch({
        profileImage: Buffer.concat([head, Buffer.alloc(64, 1)]).toString('base64'),
      });
      expect(res.status).toBe(200);
      const file = await t.app.request(res.body.data!.imageUrl!);
      expect(file.headers.get('content-type')).toBe(mime);
    }
  });

  it('rejects what is not a PNG, JPEG or WebP, and bad base64', async () => {
    const gif = await patch({ profileImage: Buffer.from('GIF89a-----').toString('base64') });
    expect(gif.status).toBe(400);
    expect(gif.body.errors).toEqual([
      { fieldName: 'profileImage', message: 'Image must be a PNG, JPEG or WebP file' },
    ]);
    const notBase64 = await patch({ profileImage: '<script>alert(1)</script>' });
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.errors[0]?.fieldName).toBe('profileImage');
  });

  it('rejects an image over 5 MiB with 413 and a clear message', async () => {
    const big = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(5 * 1024 * 1024)]).toString(
      'base64',
    );
    expect(big.length).toBeLessThan(7_000_000);
    const res = await patch({ profileImage: big });
    expect(res.status).toBe(413);
    expect(res.body.errors).toEqual([{ fieldName: 'profileImage', message: 'Image must be at most 5 MiB' }]);
  });

  it('takes bodies up to 8 MiB on this route only; larger is 413', async () => {
    const res = await patch({ profileImage: 'A'.repeat(9 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
  });
});

describe('PATCH /user/profile/update-password', () => {
  it('wrong old password is a field error', async () => {
    const res = await t.request('PATCH', '/user/profile/update-password', {
      json: { oldPassword: 'wrong', newPassword: 'NewPassw0rd' },
      token: tokens.accessToken,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { fieldName: 'oldPassword', message: authMessages.oldPasswordIncorrect },
    ]);
  });

  it('refuses a new password equal to the old one, on the new password (issue 22)', async () => {
    const user = await createUser(t.db);
    const own = await signIn(t, user.email, user.password);
    const res = await t.request('PATCH', '/user/profile/update-password', {
      json: { oldPassword: user.password, newPassword: user.password },
      token: own.accessToken,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ fieldName: 'newPassword', message: PASSWORD_UNCHANGED_MESSAGE }]);
  });

  it('an emptied address is cleared (issue 22)', async () => {
    expect((await patch({ address: '5 Broad Street, Lagos' })).body.data?.address).toBe(
      '5 Broad Street, Lagos',
    );
    const res = await patch({ address: '' });
    expect(res.status).toBe(200);
    expect(res.body.data?.address).toBeNull();
  });

  it('validates with the spec messages', async () => {
    const res = await t.request('PATCH', '/user/profile/update-password', {
      json: { oldPassword: '', newPassword: 'short' },
      token: tokens.accessToken,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { fieldName: 'oldPassword', message: 'Password is required' },
      { fieldName: 'newPassword', message: 'Please create a secure password' },
    ]);
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const user = await createUser(t.db);
    const mine = await signIn(t, user.email, user.password);
    const other = await signIn(t, user.email, user.password);
    const res = await t.request('PATCH', '/user/profile/update-password', {
      json: { oldPassword: user.password, newPassword: 'Changed1pass' },
      token: mine.accessToken,
    });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/user/profile', { token: mine.accessToken })).status).toBe(200);
    expect((await t.request('GET', '/user/profile', { token: other.accessToken })).status).toBe(401);
    await signIn(t, user.email, 'Changed1pass');
    const logged = await t.db.select().from(events).where(eq(events.action, actions.passwordChanged));
    expect(logged.map((e) => e.actorId)).toContain(user.id);
    expect(JSON.stringify(logged)).not.toContain('Changed1pass');
  });
});
