// `npm run build`, second half: the server compiled to JavaScript in dist-server/ (esbuild, one ESM
// file per entry, packages left as imports of node_modules: the `dependencies` of package.json),
// with the SQL migrations beside it. `npm run start:prod` runs dist-server/main.js with plain node.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = process.argv[2] ?? 'dist-server';
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: ['server/main.ts', 'server/migrate.ts', 'server/backup.ts', 'server/restore.ts'],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});
// server/db/client.ts finds them at `new URL('./migrations', import.meta.url)`: beside main.js.
cpSync('server/db/migrations', `${outdir}/migrations`, { recursive: true });
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
console.log(`server built: ${outdir}/ (${(bytes / 1024).toFixed(0)} KiB with source maps)`);
