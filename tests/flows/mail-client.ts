/**
 * Reads a Mailpit-compatible API (a real Mailpit, or `npm run mailbox`): only the fields both give,
 * so the walk behaves the same against either. Search by recipient (`to:`), newest first; a message
 * is fetched whole for its Text.
 */

export interface MailSummary {
  ID: string;
  To: { Name: string; Address: string }[];
  Subject: string;
  Created: string;
}

export class MailClient {
  constructor(readonly baseUrl: string) {}

  private url(path: string) {
    return `${this.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  async search(to: string): Promise<MailSummary[]> {
    const res = await fetch(this.url(`/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}&limit=50`));
    if (!res.ok) throw new Error(`mailbox search: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { messages: MailSummary[] }).messages;
  }

  async text(id: string): Promise<string> {
    const res = await fetch(this.url(`/api/v1/message/${encodeURIComponent(id)}`));
    if (!res.ok) throw new Error(`mailbox message ${id}: ${res.status}`);
    return ((await res.json()) as { Text: string }).Text;
  }

  /** The IDs of the mail to `to` so far: what a later `waitFor` does not count as new. */
  async seen(to: string): Promise<Set<string>> {
    return new Set((await this.search(to)).map((m) => m.ID));
  }

  /** The first match of `pattern` in a new mail to `to` (not in `seen`), waiting up to `timeoutMs`. */
  async waitFor(to: string, seen: Set<string>, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const m of await this.search(to)) {
        if (seen.has(m.ID)) continue;
        const match = pattern.exec(await this.text(m.ID));
        if (match) return match[1] ?? match[0];
      }
      if (Date.now() > deadline)
        throw new Error(`no new mail to ${to} matching ${pattern} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
