import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, openTestDatabase } from '../../tests/setup/server';
import { createApp } from '../app';
import type { Database } from '../db/client';
import { TEST_PASSWORD_HASHING } from '../domain/passwords';
import type { Logger } from '../log';
import { createMailer, fileMailbox } from '../mail';
import type { TrustProxy } from './trust-proxy';

/**
 * Issue 33 item 5: the access line carries the client's address, resolved through TRUST_PROXY as
 * everything else resolves it (server/http/trust-proxy.ts): X-Forwarded-For counts only when the
 * socket peer is a trusted proxy, read from the right.
 */
type Line = { msg: string } & Record<string, unknown>;
let database: Database;
let dir: string;

beforeAll(async () => {
  database = await openTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'rc-access-'));
});
afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

function appWith(trustProxy: TrustProxy) {
  const lines: Line[] = [];
  const push = (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, ...fields });
  const log: Logger = { debug: push, info: push, warn: push, error: push };
  const clock = createTestClock(new Date());
  const mailer = createMailer({ db: database.db, transport: fileMailbox(dir), clock });
  const app = createApp({
    db: database.db,
    clock,
    mailer,
    log,
    config: {
      jwtSecret: 'a'.repeat(40),
      accessTokenTtlSeconds: 900,
      refreshTokenTtlDays: 7,
      trustProxy,
      passwordHashing: TEST_PASSWORD_HASHING,
    },
  });
  /** A request from `peer` (the socket's address) with an X-Forwarded-For header. */
  const from = async (peer: string, forwardedFor?: string) => {
    lines.length = 0;
    const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
    const res = await app.request('/livez', { headers }, {
      incoming: { socket: { remoteAddress: peer } },
    } as never);
    expect(res.status).toBe(200);
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(1);
    return access[0]!.clientAddress;
  };
  return { from };
}

describe('the access line’s client address', () => {
  it('is the forwarded client behind a trusted proxy, the socket peer otherwise', async () => {
    const behindNginx = appWith(['127.0.0.1']);
    expect(await behindNginx.from('127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
    // A client's own forged entry on the left is not believed: the right-most untrusted one is.
    expect(await behindNginx.from('127.0.0.1', '10.9.9.9, 198.51.100.4')).toBe('198.51.100.4');
    // A peer that is not the proxy cannot speak for anyone.
    expect(await behindNginx.from('192.0.2.50', '203.0.113.7')).toBe('192.0.2.50');
    expect(await behindNginx.from('::ffff:192.0.2.51')).toBe('192.0.2.51');

    const direct = appWith(false);
    expect(await direct.from('198.51.100.9', '203.0.113.7')).toBe('198.51.100.9');
  });
});
