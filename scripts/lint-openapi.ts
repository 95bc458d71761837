/**
 * `npm run lint:openapi` (part of `npm run validate`): writes the API reference that
 * GET /api/v1/openapi.json serves to a temporary file and lints it with Redocly's recommended rules
 * and with Spectral's `spectral:oas` ruleset (.spectral.yaml), as a POS developer's tooling would
 * (issues 21 and 31, docs/decisions/027). An error of either fails; warnings are shown.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../server/openapi';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rc-openapi-'));
const file = join(dir, 'openapi.json');
try {
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
  const run = (tool: string, args: string[]) =>
    spawnSync(join(root, 'node_modules', '.bin', tool), args, {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).status ?? 1;
  const redocly = run('redocly', ['lint', file, '--format=summary']);
  const spectral = run('spectral', [
    'lint',
    file,
    '--ruleset',
    join(root, '.spectral.yaml'),
    '--fail-severity=error',
    '--format=text',
  ]);
  console.log(
    spectral === 0 ? '\nSpectral (spectral:oas): no errors.' : '\nSpectral (spectral:oas): errors above.',
  );
  process.exitCode = redocly || spectral;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
