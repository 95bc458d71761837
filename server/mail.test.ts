import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestServer } from '../tests/setup/server';
import { mailOutbox } from './db/schema';
import { createMailer, DELIVERED_BODY, type MailTransport } from './mail';

const t = setupTestServer();

describe('mail outbox', () => {
  it('writes one RFC 822 .eml file per message and marks it sent', async () => {
    const id = await t.mailer.enqueue(
      t.db,
      { to: 'ngozi@rewardclub.ng', subject: 'Hello', text: 'Line one\nLine two' },
      t.clock(),
    );
    t.mailer.kick();
    await t.mailer.idle();
    const file = readdirSync(t.mailDir).find((f) => f.endsWith(`-${id}.eml`))!;
    const raw = readFileSync(join(t.mailDir, file), 'utf8');
    expect(raw).toMatch(/^From: Reward Club <no-reply@rewardclub\.ng>$/m);
    expect(raw).toMatch(/^To: ngozi@rewardclub\.ng$/m);
    expect(raw).toMatch(/^Subject: Hello$/m);
    expect(raw).toMatch(/^Message-ID: </m);
    expect(raw).toContain('Line one\nLine two');
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ attempts: 1, lastError: null, text: DELIVERED_BODY });
    expect(row?.sentAt).toBeInstanceOf(Date);
  });

  it('keeps failed mail with attempts and the error, and retries it later', async () => {
    let fail = true;
    const sent: number[] = [];
    const flaky: MailTransport = {
      describe: 'flaky',
      send: async (m) => {
        if (fail) throw new Error('SMTP 421 try later');
        sent.push(m.id);
      },
    };
    const mailer = createMailer({ db: t.db, transport: flaky, clock: t.clock });
    const id = await mailer.enqueue(t.db, { to: 'x@y.ng', subject: 's', text: 't' }, t.clock());
    expect(await mailer.deliverPending()).toEqual({ sent: 0, failed: 1 });
    const [failed] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(failed).toMatchObject({
      attempts: 1,
      lastError: 'SMTP 421 try later',
      sentAt: null,
      claimedAt: null,
    });
    fail = false;
    expect(await mailer.deliverPending()).toEqual({ sent: 1, failed: 0 });
    expect(sent).toEqual([id]);
    expect(await mailer.deliverPending()).toEqual({ sent: 0, failed: 0 });
  });
});
