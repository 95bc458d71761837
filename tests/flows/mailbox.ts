import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A capture mailbox for tests and staging (issue 20): SMTP in, a Mailpit-compatible HTTP API out.
 * Every message the SMTP side accepts is parsed (mailparser) and kept in memory, newest first.
 * The API answers with Mailpit's field names (github.com/axllent/mailpit, internal/storage/structs.go
 * and server/apiv1/messages.go), so the flow walk reads codes from this or from a real Mailpit alike:
 *   GET    /api/v1/messages            { total, unread, count, messages_count, messages_unread, start, tags, messages[] }
 *   GET    /api/v1/message/{ID}        Message (Text, HTML, From, To, Subject, Date, ...)
 *   DELETE /api/v1/messages            all, or { IDs: [...] }
 *   GET    /api/v1/search?query=to:x   the messages whose To, Cc or Bcc holds x (also from:, subject:, plain words)
 * GET / is a small page listing the mail. Nothing is written to disk.
 */

export interface Address {
  Name: string;
  Address: string;
}

export interface StoredMessage {
  ID: string;
  MessageID: string;
  Read: boolean;
  From: Address | null;
  To: Address[];
  Cc: Address[];
  Bcc: Address[];
  ReplyTo: Address[];
  ReturnPath: string;
  Subject: string;
  Created: string;
  Date: string;
  Text: string;
  HTML: string;
  Size: number;
}

export interface Mailbox {
  smtpPort: number;
  httpPort: number;
  /** What a server's SMTP_URL should be to send here. */
  smtpUrl: string;
  /** The HTTP API and page (FLOWS_MAILBOX_URL). */
  httpUrl: string;
  messages: () => readonly StoredMessage[];
  close: () => Promise<void>;
}

const addresses = (field: AddressObject | AddressObject[] | undefined): Address[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((group) =>
    group.value.flatMap((a) =>
      a.group
        ? a.group.map((g) => ({ Name: g.name ?? '', Address: g.address ?? '' }))
        : [{ Name: a.name ?? '', Address: a.address ?? '' }],
    ),
  );

/** Mailpit's summary of one message (the list and search rows). */
export function summaryOf(m: StoredMessage) {
  return {
    ID: m.ID,
    MessageID: m.MessageID,
    Read: m.Read,
    From: m.From,
    To: m.To,
    Cc: m.Cc,
    Bcc: m.Bcc,
    ReplyTo: m.ReplyTo,
    Subject: m.Subject,
    Created: m.Created,
    Username: '',
    Tags: [] as string[],
    Size: m.Size,
    Attachments: 0,
    Snippet: m.Text.replace(/\s+/g, ' ').trim().slice(0, 250),
  };
}

/** Mailpit's search terms this mailbox understands: to:, from:, subject: and plain words (all must match). */
export function matchesQuery(m: StoredMessage, query: string): boolean {
  const terms = query.match(/(?:[^\s"]+:)?"[^"]*"|\S+/g) ?? [];
  const has = (list: Address[], needle: string) =>
    list.some((a) => `${a.Name} <${a.Address}>`.toLowerCase().includes(needle));
  return terms.every((raw) => {
    const term = raw.replace(/"/g, '').toLowerCase();
    const [, field, value = ''] = /^(to|from|subject):(.*)$/.exec(term) ?? [null, null, term];
    if (field === 'to') return has([...m.To, ...m.Cc, ...m.Bcc], value);
    if (field === 'from') return has(m.From ? [m.From] : [], value);
    if (field === 'subject') return m.Subject.toLowerCase().includes(value);
    return `${m.Subject}\n${m.Text}\n${m.From?.Address ?? ''}\n${m.To.map((a) => a.Address).join(' ')}`
      .toLowerCase()
      .includes(value);
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(list: readonly StoredMessage[]): string {
  const rows = list
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.Created)}</td><td>${escapeHtml(m.To.map((a) => a.Address).join(', '))}</td>` +
        `<td><details><summary>${escapeHtml(m.Subject || '(no subject)')}</summary><pre>${escapeHtml(m.Text)}</pre></details></td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Capture mailbox</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}pre{white-space:pre-wrap}</style>
</head><body><h1>Capture mailbox</h1><p>${list.length} message(s), newest first. API: <code>/api/v1/messages</code>.</p>
<table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}

const listen = (
  server: { listen: (port: number, host: string, cb: () => void) => unknown },
  port: number,
  host: string,
) => new Promise<void>((resolve) => server.listen(port, host, resolve));

export async function startMailbox(
  opts: { smtpPort?: number; httpPort?: number; host?: string; maxMessages?: number } = {},
): Promise<Mailbox> {
  const host = opts.host ?? '127.0.0.1';
  const max = opts.maxMessages ?? 5000;
  let store: StoredMessage[] = [];

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    banner: 'Reward Club capture mailbox',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        try {
          const raw = Buffer.concat(chunks);
          const parsed = await simpleParser(raw);
          const now = new Date().toISOString();
          const envelopeTo = session.envelope.rcptTo.map((r) => ({ Name: '', Address: r.address }));
          const to = addresses(parsed.to);
          store.unshift({
            ID: randomUUID(),
            MessageID: (parsed.messageId ?? '').replace(/^<|>$/g, ''),
            Read: false,
            From: addresses(parsed.from)[0] ?? null,
            To: to.length ? to : envelopeTo,
            Cc: addresses(parsed.cc),
            Bcc: addresses(parsed.bcc),
            ReplyTo: addresses(parsed.replyTo),
            ReturnPath: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            Subject: parsed.subject ?? '',
            Created: now,
            Date: parsed.date?.toISOString() ?? now,
            Text: parsed.text ?? '',
            HTML: typeof parsed.html === 'string' ? parsed.html : '',
            Size: raw.length,
          });
          if (store.length > max) store = store.slice(0, max);
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const listing = (url: URL, list: StoredMessage[]) => {
    const start = Math.max(0, Number(url.searchParams.get('start') ?? 0) || 0);
    const limit = Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50);
    const messages = list.slice(start, start + limit).map(summaryOf);
    return {
      total: store.length,
      unread: store.filter((m) => !m.Read).length,
      count: messages.length,
      messages_count: list.length,
      messages_unread: list.filter((m) => !m.Read).length,
      start,
      tags: [] as string[],
      messages,
    };
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => resolve(body));
    });

  const http: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://mailbox');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    try {
      if (req.method === 'GET' && path === '/api/v1/messages') return json(res, 200, listing(url, store));
      if (req.method === 'GET' && path === '/api/v1/search') {
        const query = url.searchParams.get('query') ?? '';
        return json(
          res,
          200,
          listing(
            url,
            store.filter((m) => matchesQuery(m, query)),
          ),
        );
      }
      const one = /^\/api\/v1\/message\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && one) {
        const id = decodeURIComponent(one[1] as string);
        const m = id === 'latest' ? store[0] : store.find((x) => x.ID === id);
        if (!m) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          return res.end('message not found');
        }
        m.Read = true;
        const { Created: _created, Read: _read, ...message } = m;
        return json(res, 200, {
          ...message,
          Tags: [],
          Username: '',
          ListUnsubscribe: { Header: '', Links: [], Errors: '', HeaderPost: '' },
          Inline: [],
          Attachments: [],
        });
      }
      if (req.method === 'DELETE' && path === '/api/v1/messages') {
        const body = await readBody(req);
        let ids: string[] = [];
        try {
          ids = (JSON.parse(body || '{}') as { IDs?: string[] }).IDs ?? [];
        } catch {
          ids = [];
        }
        store = ids.length ? store.filter((m) => !ids.includes(m.ID)) : [];
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('ok');
      }
      if (req.method === 'GET' && path === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(page(store));
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end((error as Error).message);
    }
  });

  await listen(smtp.server, opts.smtpPort ?? 1025, host);
  await listen(http, opts.httpPort ?? 8025, host);
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const httpPort = (http.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    smtpPort,
    httpPort,
    smtpUrl: `smtp://${shown}:${smtpPort}`,
    httpUrl: `http://${shown}:${httpPort}`,
    messages: () => store,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve) => http.close(() => resolve())),
      ]);
    },
  };
}
