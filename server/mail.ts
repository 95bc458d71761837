import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db, DbOrTx } from './db/client';
import { mailOutbox, passwordResetCodes, redemptionOtps } from './db/schema';
import { describeError, type Logger, silentLogger } from './log';
import { writeOutcome } from './outcome';
import { singleRun } from './single-run';

/** A mail: plain text, and optionally the same as HTML (sent together as multipart/alternative). */
export type MailMessage = { to: string; subject: string; text: string; html?: string | null };
export type OutboxMail = MailMessage & { id: number; createdAt: Date };

/** Where mail finally goes: SMTP, or a folder of .eml files (demo, tests). */
export type MailTransport = {
  describe: string;
  send: (mail: OutboxMail) => Promise<void>;
  close?: () => void;
};

export const DEFAULT_FROM = 'Reward Club <no-reply@rewardclub.ng>';

/** One RFC 822 file per message, `<timestamp>-<id>.eml`, rendered by nodemailer's stream transport. */
export function fileMailbox(dir: string, from: string = DEFAULT_FROM): MailTransport {
  mkdirSync(dir, { recursive: true });
  const render = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    describe: `file mailbox ${dir}`,
    send: async (mail) => {
      const info = await render.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        date: mail.createdAt,
      });
      const stamp = mail.createdAt.toISOString().replace(/[:.]/g, '-');
      await writeFile(join(dir, `${stamp}-${mail.id}.eml`), info.message as Buffer);
    },
  };
}

export function smtpTransport(url: string, from: string = DEFAULT_FROM): MailTransport {
  const transport = nodemailer.createTransport(url);
  return {
    describe: `SMTP ${new URL(url).host}`,
    send: async (mail) => {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        date: mail.createdAt,
      });
    },
    close: () => transport.close(),
  };
}

/** Puts a message in the outbox, inside the caller's transaction; it is delivered after commit. */
export async function enqueueMail(db: DbOrTx, mail: MailMessage, now: Date): Promise<number> {
  const [row] = await db
    .insert(mailOutbox)
    .values({ ...mail, html: mail.html ?? null, createdAt: now })
    .returning({ id: mailOutbox.id });
  return row!.id;
}

export type Mailer = {
  enqueue: (db: DbOrTx, mail: MailMessage, now: Date) => Promise<number>;
  /** Delivers what is pending now; failures stay in the outbox with attempts and lastError. */
  deliverPending: () => Promise<{ sent: number; failed: number }>;
  /** Starts a delivery run in the background (after a commit); runs coalesce. */
  kick: () => void;
  /**
   * Runs `work` (which enqueues mail) after the caller has answered, then delivers: a request that
   * mails only for known accounts answers as fast for unknown ones (docs/decisions/013). A failure is
   * logged. `idle()` waits for it.
   */
  defer: (work: () => Promise<void>) => void;
  /** Resolves when no deferred work and no delivery run is in progress (tests, shutdown). */
  idle: () => Promise<void>;
  close: () => void;
};

export const DELIVERED_BODY = '(delivered; body removed)';
export const UNDELIVERED_BODY = '(not delivered; body removed, its one-time code withdrawn)';

/**
 * A mail given up after its last attempt: nobody received the code it carries, so the code must not
 * stay usable, nor readable in the outbox (issue 8 item 4). The body goes, a reset or invitation code
 * it carries (password_reset_codes.mail_id) expires now, a redemption code sent by it
 * (redemption_otps.mail_id) is replaced. Returns how many codes were withdrawn.
 */
export async function withdrawUndeliveredMail(db: DbOrTx, mail: { id: number }, now: Date) {
  const codes = await db
    .update(passwordResetCodes)
    .set({ expiresAt: now })
    .where(and(eq(passwordResetCodes.mailId, mail.id), isNull(passwordResetCodes.usedAt)))
    .returning({ id: passwordResetCodes.id });
  let withdrawn = codes.length;
  const otps = await db
    .update(redemptionOtps)
    .set({ replacedAt: now })
    .where(
      and(
        eq(redemptionOtps.mailId, mail.id),
        isNull(redemptionOtps.usedAt),
        isNull(redemptionOtps.replacedAt),
      ),
    )
    .returning({ id: redemptionOtps.id });
  withdrawn += otps.length;
  await db.update(mailOutbox).set({ text: UNDELIVERED_BODY, html: null }).where(eq(mailOutbox.id, mail.id));
  return withdrawn;
}

const CLAIM_TIMEOUT_MS = 2 * 60 * 1000;

export function createMailer(opts: {
  db: Db;
  transport: MailTransport;
  clock?: () => Date;
  log?: Logger;
  maxAttempts?: number;
  batchSize?: number;
}): Mailer {
  const { db, transport } = opts;
  const clock = opts.clock ?? (() => new Date());
  const log = opts.log ?? silentLogger;
  const maxAttempts = opts.maxAttempts ?? 5;
  const batchSize = opts.batchSize ?? 20;

  /** Claims a batch (safe across instances: SKIP LOCKED plus a claim timestamp). */
  const claim = async (): Promise<(OutboxMail & { attempts: number })[]> => {
    const now = clock();
    const stale = new Date(now.getTime() - CLAIM_TIMEOUT_MS);
    const candidates = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          isNull(mailOutbox.sentAt),
          lt(mailOutbox.attempts, maxAttempts),
          or(isNull(mailOutbox.claimedAt), lt(mailOutbox.claimedAt, stale)),
        ),
      )
      .orderBy(mailOutbox.id)
      .limit(batchSize)
      .for('update', { skipLocked: true });
    return db
      .update(mailOutbox)
      .set({ claimedAt: now, attempts: sql`${mailOutbox.attempts} + 1` })
      .where(inArray(mailOutbox.id, candidates))
      .returning({
        id: mailOutbox.id,
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        text: mailOutbox.text,
        html: mailOutbox.html,
        createdAt: mailOutbox.createdAt,
        attempts: mailOutbox.attempts,
      });
  };

  const deliverPending = async () => {
    let sent = 0;
    let failed = 0;
    for (;;) {
      const batch = await claim();
      if (batch.length === 0) break;
      for (const { attempts, ...mail } of batch.sort((a, b) => a.id - b.id)) {
        let sendError: unknown;
        try {
          await transport.send(mail);
        } catch (err) {
          sendError = err;
        }
        // The outcome is written until it lands while the claim holds (server/outcome.ts): a mail that
        // went out is not sent again because the connection was cut just after.
        if (sendError === undefined) {
          await writeOutcome(
            // The body may hold a one-time code: it is not kept once delivered.
            () =>
              db
                .update(mailOutbox)
                .set({ sentAt: clock(), lastError: null, text: DELIVERED_BODY, html: null })
                .where(eq(mailOutbox.id, mail.id)),
            { log, what: `mail ${mail.id}`, budgetMs: CLAIM_TIMEOUT_MS / 2 },
          );
          sent++;
          log.info('mail sent', { mailId: mail.id, subject: mail.subject });
          continue;
        }
        failed++;
        const message = sendError instanceof Error ? sendError.message : String(sendError);
        await writeOutcome(
          () =>
            db.transaction(async (tx) => {
              await tx
                .update(mailOutbox)
                .set({ claimedAt: null, lastError: message.slice(0, 1000) })
                .where(eq(mailOutbox.id, mail.id));
              if (attempts < maxAttempts) return;
              const withdrawn = await withdrawUndeliveredMail(tx, mail, clock());
              log.warn('mail given up after its last attempt', {
                mailId: mail.id,
                codesWithdrawn: withdrawn,
              });
            }),
          { log, what: `mail ${mail.id}`, budgetMs: CLAIM_TIMEOUT_MS / 2 },
        );
        log.warn('mail delivery failed', { mailId: mail.id, attempt: attempts, error: message });
      }
      if (failed > 0) break; // retried on the next run, not in a tight loop
    }
    return { sent, failed };
  };

  const { kick, running } = singleRun(deliverPending, log, 'mail delivery run failed');
  const deferred = new Set<Promise<void>>();

  return {
    enqueue: enqueueMail,
    deliverPending,
    kick,
    defer: (work) => {
      const task = (async () => {
        // After the caller's answer has gone out: the embedded database runs its queries on this
        // thread, so work begun sooner would delay the answer.
        await new Promise((resolve) => setImmediate(resolve));
        try {
          await work();
          kick();
        } catch (err) {
          log.error('deferred mail work failed', { error: describeError(err) });
        }
      })().finally(() => {
        deferred.delete(task);
      });
      deferred.add(task);
    },
    idle: async () => {
      while (running() || deferred.size > 0) {
        await Promise.all([...deferred]);
        await running();
      }
    },
    close: () => transport.close?.(),
  };
}
