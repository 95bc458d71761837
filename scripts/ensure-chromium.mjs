// Makes sure a Chromium for the end-to-end tests exists. Playwright's own browser download
// cannot be used here, so the tests run the system Chromium (CHROME_PATH or /usr/bin/chromium).
// On Debian as root the package is installed when missing; elsewhere this says what to install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = process.env.CHROME_PATH || '/usr/bin/chromium';
if (existsSync(wanted)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (!process.env.CHROME_PATH && isRoot && hasApt) {
  console.log('Chromium is missing: installing Debian package "chromium" (one time)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execSync('apt-get update -qq', { stdio: 'inherit', env });
  execSync('apt-get install -y -qq chromium', { stdio: 'inherit', env });
  if (existsSync(wanted)) process.exit(0);
}
console.error(
  `No Chromium at ${wanted}. Install your system's Chromium (Debian: apt-get install chromium) ` +
    'or set CHROME_PATH to a Chromium or Chrome binary, then run the tests again.',
);
process.exit(1);
