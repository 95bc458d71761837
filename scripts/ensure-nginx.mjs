// Makes sure nginx exists for the production end-to-end test (tests/e2e/production.spec.ts: two
// built instances behind Debian's nginx). On Debian as root the package is installed when missing
// (CI runs on a fresh machine); elsewhere this says what to install. NGINX_PATH overrides the binary.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = process.env.NGINX_PATH || '/usr/sbin/nginx';
if (existsSync(wanted)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!process.env.NGINX_PATH && isRoot && existsSync('/usr/bin/apt-get')) {
  console.log('nginx is missing: installing Debian package "nginx" (one time)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execSync('apt-get update -qq', { stdio: 'inherit', env });
  // policy-rc.d keeps the package from starting a system nginx on port 80.
  execSync('apt-get install -y -qq --no-install-recommends nginx', { stdio: 'inherit', env });
  if (existsSync(wanted)) process.exit(0);
}
console.error(
  `No nginx at ${wanted}. Install it (Debian: apt-get install nginx) or set NGINX_PATH, then run the tests again.`,
);
process.exit(1);
