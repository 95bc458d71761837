import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isForbiddenAddress } from './domain/webhooks';
import { describeError } from './log';

/* An HTTP POST that refuses private and reserved destinations (checked on the resolved address it
 * connects to, so DNS rebinding cannot slip through), with a timeout and a cap on the answer read. */

export type ResolvedAddress = { address: string; family: number };
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export type SafePostOptions = {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Bytes of the answer read at most (the rest is dropped with the connection). */
  maxResponseBytes: number;
  resolve?: Resolver;
};

export type PostResult = { statusCode: number; body: string };

/** A refused destination: the message says why (logged on the attempt, never followed). */
export class RefusedDestination extends Error {}

const defaultResolve: Resolver = async (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * POSTs `body` to `url` safely: the host is resolved once, every address checked (private, loopback,
 * link-local and reserved ranges refused unless `allowPrivate`), and the connection pinned to the
 * checked address (no second lookup an attacker's DNS could answer differently). Redirects are not
 * followed (a 3xx is a failed attempt), the whole exchange is cut at `timeoutMs`, and at most
 * `maxResponseBytes` of the answer are read.
 */
export async function safePost(
  url: string,
  headers: Record<string, string>,
  body: string,
  o: SafePostOptions,
): Promise<PostResult> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RefusedDestination('not an http(s) URL');
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  const addresses: ResolvedAddress[] = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await (o.resolve ?? defaultResolve)(host).catch((err: unknown) => {
        throw new RefusedDestination(`${host} does not resolve (${describeError(err)})`);
      });
  if (addresses.length === 0) throw new RefusedDestination(`${host} does not resolve`);
  if (!o.allowPrivate) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad)
      throw new RefusedDestination(`${host} resolves to a private or reserved address (${bad.address})`);
  }
  const pinned = addresses[0]!;
  const transport = u.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve, reject) => {
    const req = transport.request(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        // The connection goes to the address checked above, whatever DNS says now.
        lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
          if (opts?.all) cb(null, [{ address: pinned.address, family: pinned.family }]);
          else cb(null, pinned.address, pinned.family);
        }) as never,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          clearTimeout(timer);
          resolve({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        };
        res.on('data', (chunk: Buffer) => {
          if (size >= o.maxResponseBytes) return;
          chunks.push(chunk.subarray(0, o.maxResponseBytes - size));
          size += chunk.length;
          if (size >= o.maxResponseBytes) {
            res.destroy();
            finish();
          }
        });
        res.on('end', finish);
        res.on('error', () => finish());
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}
