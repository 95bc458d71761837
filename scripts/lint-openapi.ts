/**
 * `npm run lint:openapi` (part of `npm run validate`): writes the API reference that
 * GET /api/v1/openapi.json serves to a temporary file and lints it with Redocly's recommended rules,
 * as a POS developer's tooling would (issue 21, docs/decisions/027). Errors fail; warnings are shown.
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
  const result = spawnSync(
    join(root, 'node_modules', '.bin', 'redocly'),
    ['lint', file, '--format=summary'],
    {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
