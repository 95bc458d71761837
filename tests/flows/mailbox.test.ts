import nodemailer from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MailClient } from './mail-client';
import { type Mailbox, startMailbox } from './mailbox';

/** The capture mailbox: SMTP in (nodemailer, as the server sends), Mailpit's API out. */

let mailbox: Mailbox;
const api = (path: string, init?: RequestInit) => fetch(`${mailbox.httpUrl}${path}`, init);
const send = (to: string, subject: string, text: string) =>
  nodemailer
    .createTransport(mailbox.smtpUrl)
    .sendMail({ from: 'Reward Club <no-reply@rewardclub.ng>', to, subject, text });

beforeAll(async () => {
  mailbox = await startMailbox({ smtpPort: 0, httpPort: 0 });
});
afterAll(async () => {
  await mailbox.close();
});
beforeEach(async () => {
  await api('/api/v1/messages', { method: 'DELETE' });
});

describe('capture mailbox', () => {
  it('binds to 127.0.0.1 by default and names its SMTP URL', () => {
    expect(mailbox.smtpUrl).toBe(`smtp://127.0.0.1:${mailbox.smtpPort}`);
    expect(mailbox.httpUrl).toBe(`http://127.0.0.1:${mailbox.httpPort}`);
  });

  it('lists mail sent by SMTP with the fields of Mailpit’s MessagesSummary, newest first', async () => {
    await send('Ngozi Eze <ngozi@mail.ng>', 'First', 'Your redemption code is: 123456');
    await send('bola@mail.ng', 'Second', 'Hello Bola');
    const res = await api('/api/v1/messages');
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['count', 'messages', 'messages_count', 'messages_unread', 'start', 'tags', 'total', 'unread'].sort(),
    );
    expect(body).toMatchObject({ total: 2, unread: 2, count: 2, messages_count: 2, start: 0 });
    const [second, first] = body.messages;
    expect(Object.keys(first).sort()).toEqual(
      [
        'Attachments',
        'Bcc',
        'Cc',
        'Created',
        'From',
        'ID',
        'MessageID',
        'Read',
        'ReplyTo',
        'Size',
        'Snippet',
        'Subject',
        'Tags',
        'To',
        'Username',
      ].sort(),
    );
    expect(second.Subject).toBe('Second');
    expect(first).toMatchObject({
      Subject: 'First',
      From: { Name: 'Reward Club', Address: 'no-reply@rewardclub.ng' },
      To: [{ Name: 'Ngozi Eze', Address: 'ngozi@mail.ng' }],
      Read: false,
      Snippet: 'Your redemption code is: 123456',
    });
    expect(new Date(first.Created).toISOString()).toBe(first.Created);
    expect(typeof first.ID).toBe('string');
  });

  it('returns one message with its Text (Mailpit’s Message) and marks it read', async () => {
    await send('ngozi@mail.ng', 'Your code', 'Your redemption code is: 654321\nIt expires in 5 minutes.');
    const [summary] = (await (await api('/api/v1/messages')).json()).messages;
    const message = await (await api(`/api/v1/message/${summary.ID}`)).json();
    expect(message).toMatchObject({
      ID: summary.ID,
      Subject: 'Your code',
      To: [{ Name: '', Address: 'ngozi@mail.ng' }],
      HTML: '',
    });
    expect(message.Text).toContain('Your redemption code is: 654321');
    expect(typeof message.Date).toBe('string');
    expect((await (await api('/api/v1/messages')).json()).unread).toBe(0);
    expect((await api('/api/v1/message/nope')).status).toBe(404);
  });

  it('searches by recipient as Mailpit does (to:addr, quoted or not)', async () => {
    await send('ngozi@mail.ng', 'A', 'one');
    await send('bola@mail.ng', 'B', 'two');
    await send('ngozi@mail.ng', 'C', 'three');
    const found = await (await api(`/api/v1/search?query=${encodeURIComponent('to:ngozi@mail.ng')}`)).json();
    expect(found.messages.map((m: { Subject: string }) => m.Subject)).toEqual(['C', 'A']);
    expect(found).toMatchObject({ total: 3, messages_count: 2, count: 2 });
    const quoted = await (
      await api(`/api/v1/search?query=${encodeURIComponent('to:"bola@mail.ng" subject:B')}`)
    ).json();
    expect(quoted.messages.map((m: { Subject: string }) => m.Subject)).toEqual(['B']);
  });

  it('deletes every message, or the IDs given', async () => {
    await send('a@mail.ng', 'A', 'one');
    await send('b@mail.ng', 'B', 'two');
    const [b] = (await (await api('/api/v1/messages')).json()).messages;
    const res = await api('/api/v1/messages', { method: 'DELETE', body: JSON.stringify({ IDs: [b.ID] }) });
    expect(res.status).toBe(200);
    expect(
      (await (await api('/api/v1/messages')).json()).messages.map((m: { Subject: string }) => m.Subject),
    ).toEqual(['A']);
    await api('/api/v1/messages', { method: 'DELETE' });
    expect((await (await api('/api/v1/messages')).json()).total).toBe(0);
  });

  it('shows a page listing the mail', async () => {
    await send('ngozi@mail.ng', 'Your <code>', 'body');
    const html = await (await api('/')).text();
    expect(html).toContain('Capture mailbox');
    expect(html).toContain('ngozi@mail.ng');
    expect(html).toContain('Your &#60;code&#62;');
  });

  it('the walk’s client waits for a new code to one recipient', async () => {
    const client = new MailClient(mailbox.httpUrl);
    await send('ngozi@mail.ng', 'Old', 'Your redemption code is: 111111');
    const seen = await client.seen('ngozi@mail.ng');
    const waiting = client.waitFor('ngozi@mail.ng', seen, /redemption code is: (\d{6})/, 5000);
    await send('bola@mail.ng', 'Other', 'Your redemption code is: 999999');
    await send('ngozi@mail.ng', 'New', 'Your redemption code is: 222222');
    expect(await waiting).toBe('222222');
  });
});
