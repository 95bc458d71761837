import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir, startServerProcess, tinySpaDir } from '../../tests/setup/faults';
import { isPostgres } from '../../tests/setup/server';

/**
 * Issue 33 item 3: a request that began before SIGTERM (its headers read, its body still arriving)
 * gets its answer with `Connection: close`, the server closes that keep-alive connection as the
 * answer ends, and the process exits within about a second of it, instead of waiting for Node's 5-s
 * keep-alive timeout (9.9 s of the 10 s allowed, seen by an operator).
 *
 * The request is a sign-in whose body arrives 1.5 s after SIGTERM: later than the 1-s sweep of idle
 * connections, so only closing the connection as its answer ends can make the exit prompt.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

describe.runIf(!isPostgres)('SIGTERM with a request in flight on a keep-alive connection', () => {
  it('answers it with Connection: close, closes the connection, and exits within about a second', async () => {
    const dir = scratchDir('rc-shutdown-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await startServerProcess({
      DATA_DIR: dir,
      SPA_DIR: tinySpaDir(dir),
      JWT_SECRET: 'shutdown-test-secret-0123456789abcdef0123',
      SHUTDOWN_TIMEOUT_SECONDS: '20',
    });
    cleanups.push(() => server.kill());
    const { port } = new URL(server.url);

    const socket = connect(Number(port), '127.0.0.1');
    cleanups.push(() => void socket.destroy());
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    let received = '';
    let answeredAt = 0;
    let serverClosedAt = 0;
    socket.on('data', (d) => {
      received += d;
      if (!answeredAt && /\r\n\r\n[\s\S]*\}$/.test(received)) answeredAt = Date.now();
    });
    const closed = new Promise<void>((resolve) =>
      socket.once('end', () => {
        serverClosedAt = Date.now();
        resolve();
      }),
    );
    socket.on('error', () => {});

    const body = JSON.stringify({ email: 'nobody@rewardclub.test', password: 'Wrong#Password1' });
    socket.write(
      [
        'POST /api/v1/admin/auth/login HTTP/1.1',
        'Host: 127.0.0.1',
        'Connection: keep-alive',
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(body.slice(0, 10));
    // The server has read the headers: the request has begun.
    await new Promise((r) => setTimeout(r, 300));
    process.kill(server.pid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(server.alive()).toBe(true);
    socket.write(body.slice(10));

    const exitedAt = await new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (!server.alive()) {
          clearInterval(poll);
          resolve(Date.now());
        } else if (Date.now() - started > 15_000) {
          clearInterval(poll);
          reject(new Error(`the server did not exit within 15 s:\n${server.output()}`));
        }
      }, 20);
    });
    await closed;

    // The answer: a real one (401, wrong credentials), telling the client the connection ends.
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(answeredAt).toBeGreaterThan(0);
    // The connection closed by the server as the answer ended, the process gone about a second later.
    expect(serverClosedAt - answeredAt).toBeLessThan(500);
    expect(exitedAt - answeredAt).toBeLessThan(1_500);
  }, 120_000);
});
