// `npm run lint:deploy` (part of `npm run validate`): checks what deploy/ ships.
//   - deploy/reward-club@.service with `systemd-analyze verify` (as an instance, reward-club@3000);
//     any warning it prints fails the check;
//   - deploy/alerts.yml with `promtool check rules`, and its unit tests deploy/alerts.test.yml with
//     `promtool test rules`.
// On Debian as root the tools are installed when missing (packages `systemd` and `prometheus`; CI runs
// on a fresh machine), as scripts/ensure-nginx.mjs does; elsewhere this says what to install.
import { execSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tools = [
  { bin: '/usr/bin/systemd-analyze', pkg: 'systemd' },
  { bin: '/usr/bin/promtool', pkg: 'prometheus' },
];
const missing = tools.filter((t) => !existsSync(t.bin));
if (missing.length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `lint:deploy needs ${missing.map((t) => t.bin).join(' and ')}: install the Debian package(s) ${missing.map((t) => t.pkg).join(' ')} (apt-get install), then run it again.`,
    );
    process.exit(1);
  }
  const pkgs = missing.map((t) => t.pkg).join(' ');
  console.log(`lint:deploy: installing Debian package(s) ${pkgs} (one time)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execSync('apt-get update -qq', { stdio: 'inherit', env });
  execSync(`apt-get install -y -qq --no-install-recommends ${pkgs}`, { stdio: 'inherit', env });
}

let failed = false;
const run = (label, cmd, args, { quiet = false } = {}) => {
  const res = spawnSync(cmd, args, { encoding: 'utf8' });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`.trim();
  // systemd-analyze verify exits 0 on some problems it only warns about: any word from it is a failure.
  const ok = res.status === 0 && !(quiet && output);
  console.log(`lint:deploy: ${label}: ${ok ? 'ok' : 'FAILED'}`);
  if (!ok || !quiet) if (output) console.log(output.replace(/^/gm, '  '));
  if (!ok) failed = true;
};

const dir = mkdtempSync(join(tmpdir(), 'rc-lint-deploy-'));
try {
  const unit = join(dir, 'reward-club@3000.service');
  copyFileSync('deploy/reward-club@.service', unit);
  run('systemd-analyze verify deploy/reward-club@.service', '/usr/bin/systemd-analyze', ['verify', unit], {
    quiet: true,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
run('promtool check rules deploy/alerts.yml', '/usr/bin/promtool', ['check', 'rules', 'deploy/alerts.yml']);
run('promtool test rules deploy/alerts.test.yml', '/usr/bin/promtool', [
  'test',
  'rules',
  'deploy/alerts.test.yml',
]);
process.exit(failed ? 1 : 0);
