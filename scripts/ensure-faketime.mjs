// Makes sure Debian's `faketime` (libfaketime) exists for the date-proof run of the server suite
// (`npm run test:server:future`: the clock moved 200 days ahead, issue 16). On Debian as root the
// package is installed when missing (CI runs on a fresh machine); elsewhere this says what to install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = process.env.FAKETIME_PATH || '/usr/bin/faketime';
if (existsSync(wanted)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (isRoot && hasApt) {
  console.log('faketime is missing: installing Debian package "faketime" (one time)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execSync('apt-get update -qq', { stdio: 'inherit', env });
  execSync('apt-get install -y -qq faketime', { stdio: 'inherit', env });
  if (existsSync(wanted)) process.exit(0);
}
console.error(
  `No faketime at ${wanted}. Install libfaketime (Debian: apt-get install faketime; macOS: brew install ` +
    'libfaketime), then run the tests again.',
);
process.exit(1);
