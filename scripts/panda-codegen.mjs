// `prepare` (runs at every npm install/ci): Panda's generated styled-system for the SPA. Skipped
// when Panda is not installed (`npm ci --omit=dev`: a production install builds nothing).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('node_modules/@pandacss/dev')) process.exit(0);
execSync('panda codegen --silent', { stdio: 'inherit' });
