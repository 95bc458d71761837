import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSpa, freePort, REPO_ROOT, startMailboxProcess, startServerProcess } from '../tests/flows/stack';

/**
 * CI's flow walk (`npm run ci:flows`, part of `npm run validate`): walks a deployment the way a
 * tester's staging is walked, through the URLs. It starts `npm run mailbox` and the real server
 * (embedded database in a temporary DATA_DIR, SMTP_URL to that mailbox) as separate processes on
 * free ports, runs `npm run test:flows` with FLOWS_BASE_URL and FLOWS_MAILBOX_URL, and stops them.
 * The report is flows-report/index.html (FLOWS_REPORT_DIR to put it elsewhere), the run's artefact.
 */

const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), 'ci-flows-'));
const stops: Array<() => Promise<void>> = [];
let code = 1;
try {
  const spaDir = join(REPO_ROOT, 'tests/.tmp/flows-dist');
  buildSpa(spaDir);
  // CI_FLOWS_PORTS=smtp,http,server pins the ports (a shared machine's range); free ones otherwise.
  const pinned = (process.env.CI_FLOWS_PORTS ?? '').split(',').filter(Boolean).map(Number);
  const [smtpPort, httpPort, port] = (
    pinned.length === 3 ? pinned : [await freePort(), await freePort(), await freePort()]
  ) as [number, number, number];
  const mailbox = await startMailboxProcess({ smtpPort, httpPort });
  stops.push(mailbox.stop);
  const server = await startServerProcess({
    port,
    dataDir: join(tmp, 'data'),
    spaDir,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
  });
  stops.push(server.stop);
  console.log(`ci-flows: server ${server.url}, mailbox ${mailbox.url} (SMTP ${smtpPort})`);
  code = await new Promise<number>((resolve) => {
    const walk = spawn('npm', ['run', '--silent', 'test:flows'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, FLOWS_BASE_URL: server.url, FLOWS_MAILBOX_URL: mailbox.url },
    });
    walk.once('exit', (c) => resolve(c ?? 1));
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  rmSync(tmp, { recursive: true, force: true });
  console.log(`ci-flows: ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${code}`);
}
process.exit(code);
