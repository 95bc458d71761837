import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { PurgeCSS } from 'purgecss';
import { build, defineConfig, type Plugin, type ResolvedConfig, runnerImport } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};
/**
 * The app version the query cache is keyed by (decision 002): the package version plus the build
 * time, so every deployed build starts with an empty IndexedDB query cache.
 */
const appBuild = `${version}+${Date.now().toString(36)}`;

/**
 * Writes `sign-in.html`: index.html with the sign-in screen rendered into #root (decision 021). The
 * server sends it for `/`, so a first visit paints the screen before the JavaScript has arrived.
 *
 * Its stylesheet is the sign-in screen's own (decision 072, `signInCss`), not the whole app's: the
 * link names the app's in `data-app-css`, and src/main.tsx adds that one once the form is live, so
 * it does not share the slow link with the first screen's JavaScript.
 */
function prerenderSignIn(bootModules: () => ReadonlySet<string>): Plugin {
  const root = fileURLToPath(new URL('.', import.meta.url));
  return {
    name: 'reward-club:prerender-sign-in',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') this.error('vite emitted no index.html to prerender into');
      const { module } = await runnerImport<{ renderSignInMarkup(): string }>(
        '/src/prerender/sign-in-markup.tsx',
        { root, configFile: false, logLevel: 'error' },
      );
      const empty = '<div id="root"></div>';
      const html = String(index.source);
      if (!html.includes(empty)) this.error('index.html has no empty <div id="root"></div>');
      const appCss = html.match(/<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/);
      if (!appCss?.[1]) this.error('index.html links no stylesheet');
      const css = this.emitFile({
        type: 'asset',
        name: 'sign-in.css',
        source: await withoutUnusedVariables(signInCss(root, bootModules())),
      });
      const source = html
        .replace(
          appCss[0],
          `<link rel="stylesheet" href="/${this.getFileName(css)}" data-app-css="${appCss[1]}">`,
        )
        .replace(empty, `<div id="root">${module.renderSignInMarkup()}</div>`);
      this.emitFile({ type: 'asset', fileName: 'sign-in.html', source });
    },
  };
}

/**
 * The sign-in screen's own CSS (decision 072): Panda's CSS (`panda cssgen`, the project's config) of
 * the source files the first screen runs (the boot probe's modules, `firstScreenChunks`), with the
 * reset, the tokens and the global styles every screen has. The prerendered copy is rendered from the
 * same components, so it is styled by it too.
 */
function signInCss(root: string, modules: ReadonlySet<string>): string {
  const files = [...modules]
    .filter((id) => id.startsWith(join(root, 'src/')) && /\.tsx?$/.test(id))
    .map((id) => relative(root, id));
  if (files.length === 0) throw new Error('the boot probe named no source file for the sign-in CSS');
  const dir = mkdtempSync(join(tmpdir(), 'reward-club-sign-in-css-'));
  const outfile = join(dir, 'sign-in.css');
  try {
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/@pandacss/dev/bin.js'),
        'cssgen',
        files.length === 1 ? (files[0] as string) : `{${files.join(',')}}`,
        '--outfile',
        outfile,
        '--minify',
        '--silent',
      ],
      { cwd: root, stdio: 'inherit' },
    );
    return readFileSync(outfile, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The sign-in CSS without the custom properties nothing in it reads (decision 077). Panda writes a
 * variable for every token of the theme (~440 of the ~525 in that sheet are read by no rule of it:
 * ~11 KB raw, ~2.5 KB brotli on the slow link before the form is live). PurgeCSS's own variable
 * analysis (`variables: true`, following var() inside other variables) drops those; every rule is
 * kept (all selectors safelisted), so only declarations of unread variables go. The app's stylesheet,
 * which the app's screens wait for, keeps every token.
 */
async function withoutUnusedVariables(css: string): Promise<string> {
  const everything = /[\s\S]*/;
  const [result] = await new PurgeCSS().purge({
    content: [{ raw: '', extension: 'html' }],
    css: [{ raw: css }],
    variables: true,
    keyframes: false,
    fontFace: false,
    safelist: { standard: [everything], deep: [everything], greedy: [everything] },
  });
  if (!result) throw new Error('PurgeCSS returned no sign-in CSS');
  return result.css;
}

/**
 * The JavaScript the first screen needs, in one file instead of ~45 (decision 022), and what comes
 * behind it in two more (decisions 061 and 072): `boot` holds the modules whose code the entry runs
 * (React, the sign-in screen and its form); `api` the session (src/session-boot.ts: XState, the
 * session machine, the API client) and the endpoint registry (contract/api.ts) with what they import,
 * all that the sign-in's own call needs; `app` what src/app.tsx adds (the router with the route tree,
 * TanStack Query). On a first visit `api`, then `app`, load once the sign-in form is live. Rolldown's automatic chunking otherwise splits them into
 * many small shared chunks, each one more request on the critical path and each compressed on its
 * own. Everything loaded on demand keeps its own chunks.
 *
 * Which modules the entry runs is measured, not guessed from the import graph (decision 072): a
 * probe build of the entry alone (`bootProbe`, every dynamic import left outside, nothing written)
 * keeps, after tree-shaking, only the modules with code the entry needs (and the entry itself). The
 * import graph alone also takes in what re-exports and barrels merely name (zod's JSON-schema code,
 * zag's DOM helpers, Panda's recipes of other components): in `boot`, their code went to every first
 * visit although only later chunks use it (~10 KB gzip). The registry is its own group so that it does
 * not import `app`: the contract modules both use were in `app`, and a Sign in pressed early waited
 * for the whole app before its call could go.
 */
function firstScreenChunks() {
  const boot = new Set<string>();
  const api = new Set<string>();
  const app = new Set<string>();
  const frame = new Set<string>();
  const toaster = new Set<string>();
  const overlay = new Set<string>();
  let config: ResolvedConfig | undefined;
  const plugin: Plugin = {
    name: 'reward-club:first-screen-chunks',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async buildStart() {
      if (!config) return;
      boot.clear();
      for (const id of await probeBootModules(config)) boot.add(id);
    },
    buildEnd() {
      const closure = (roots: string[], into: Set<string>, skip: Set<string>) => {
        const stack = [...roots];
        while (stack.length) {
          const id = stack.pop() as string;
          if (into.has(id) || skip.has(id)) continue;
          into.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      };
      const ids = [...this.getModuleIds()];
      api.clear();
      closure(
        ids.filter((id) => /[\\/]contract[\\/]api\.ts$|[\\/]src[\\/]session-boot\.ts$/.test(id)),
        api,
        boot,
      );
      app.clear();
      closure(
        ids.filter((id) => /[\\/]src[\\/]app\.tsx$/.test(id)),
        app,
        new Set([...boot, ...api]),
      );
      // The dashboard's frame (the layout every signed-in screen is in: the outbox, the menu, Dexie)
      // in one file: its ~20 small chunks queued for the browser's six connections per host (HTTP/1.1)
      // ahead of the first screen's calls (decision 077). What the toaster shares with it (Ark UI's
      // portal and layers) is a third group: the toaster also loads on the sign-in screens (a refused
      // sign-in's toast), which must fetch neither the frame (Dexie among it) nor the toaster for it.
      const frameAll = new Set<string>();
      closure(
        ids.filter((id) =>
          /[\\/]src[\\/]routes[\\/]dashboard[\\/]-components[\\/]dashboard-layout\.tsx$/.test(id),
        ),
        frameAll,
        new Set([...boot, ...api, ...app]),
      );
      const toasterAll = new Set<string>();
      closure(
        ids.filter((id) => /[\\/]src[\\/]components[\\/]ui[\\/]toast\.tsx$/.test(id)),
        toasterAll,
        new Set([...boot, ...api, ...app]),
      );
      overlay.clear();
      toaster.clear();
      frame.clear();
      for (const id of toasterAll) (frameAll.has(id) ? overlay : toaster).add(id);
      for (const id of frameAll) if (!overlay.has(id)) frame.add(id);
    },
  };
  const groups = [
    { name: 'boot', test: (id: string) => boot.has(id), priority: 20 },
    { name: 'api', test: (id: string) => api.has(id), priority: 15 },
    { name: 'app', test: (id: string) => app.has(id), priority: 10 },
    { name: 'overlay', test: (id: string) => overlay.has(id), priority: 8 },
    { name: 'toaster', test: (id: string) => toaster.has(id), priority: 7 },
    { name: 'frame', test: (id: string) => frame.has(id), priority: 5 },
  ];
  return { plugin, groups, boot: boot as ReadonlySet<string> };
}

/** Set in the probe build of `probeBootModules` (this same config, run again inside the build). */
const BOOT_PROBE = process.env.REWARD_CLUB_BOOT_PROBE === '1';

/**
 * The modules the entry's own code needs: this config built again with every dynamic import left
 * external and nothing written; the entry chunk's modules that render any code, after tree-shaking.
 */
async function probeBootModules(config: ResolvedConfig): Promise<string[]> {
  process.env.REWARD_CLUB_BOOT_PROBE = '1';
  try {
    const result = await build({
      configFile: config.configFile,
      root: config.root,
      mode: config.mode,
      logLevel: 'warn',
      build: {
        write: false,
        emptyOutDir: false,
        copyPublicDir: false,
        sourcemap: false,
        minify: false,
        reportCompressedSize: false,
      },
    });
    const ids: string[] = [];
    for (const output of Array.isArray(result) ? result : [result])
      if ('output' in output)
        for (const item of output.output)
          if (item.type === 'chunk' && item.isEntry)
            // The entry module itself too (index.html's script): the entry chunk stays `boot`.
            for (const [id, module] of Object.entries(item.modules))
              if (module.renderedLength > 0 || id === item.facadeModuleId) ids.push(id);
    if (ids.length === 0) throw new Error('the boot probe found no module in the entry chunk');
    return ids;
  } finally {
    delete process.env.REWARD_CLUB_BOOT_PROBE;
  }
}

/**
 * The probe build's own plugin: dynamic imports stay outside (the entry alone is bundled), and CSS
 * is left out (the probe counts JavaScript; Panda's extraction would only cost time).
 */
function bootProbe(): Plugin {
  return {
    name: 'reward-club:boot-probe',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source.endsWith('.css') ? '\0boot-probe:css' : null;
    },
    load(id) {
      return id === '\0boot-probe:css' ? '' : null;
    },
    resolveDynamicImport(specifier) {
      return typeof specifier === 'string' ? { id: specifier, external: true } : null;
    },
  };
}
const chunks = firstScreenChunks();

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every JavaScript, CSS
 * and SVG file of the build (decision 061): the server sends the best one the browser accepts
 * (server/spa.ts, `precompressed`), compressed once at build time as hard as the formats allow
 * instead of at every request. Brotli is ~15 % smaller than gzip on the app's JavaScript.
 */
function precompress(): Plugin {
  return {
    name: 'reward-club:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg)$/.test(fileName)) continue;
        const source = readFileSync(join(outDir, fileName));
        if (source.length < 1024) continue;
        writeFileSync(
          join(outDir, `${fileName}.br`),
          brotliCompressSync(source, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        );
        writeFileSync(join(outDir, `${fileName}.gz`), gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  define: { 'import.meta.env.VITE_APP_BUILD': JSON.stringify(appBuild) },
  // The boot probe (firstScreenChunks) bundles the entry alone: no routes, no service worker, no
  // prerender, nothing written.
  plugins: BOOT_PROBE
    ? [react(), bootProbe()]
    : [
        tanstackRouter({ target: 'react', autoCodeSplitting: true }),
        react(),
        // The app shell offline (decision 008): precache the build, SPA routes fall back to index.html,
        // /api is never cached by the worker (user data lives only in Dexie, which sign-out wipes).
        VitePWA({
          registerType: 'prompt',
          injectRegister: false,
          filename: 'sw.js',
          manifestFilename: 'manifest.webmanifest',
          includeAssets: ['logo.svg'],
          manifest: {
            name: 'Reward Club Admin',
            short_name: 'Reward Club',
            description: 'The Reward Club administration console',
            start_url: '/',
            scope: '/',
            display: 'standalone',
            theme_color: '#0b3d91',
            background_color: '#ffffff',
            icons: [{ src: '/logo.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
          },
          workbox: {
            globPatterns: ['**/*.{js,css,html,svg,png,ico,woff,woff2,webmanifest}'],
            // Only first visits (no worker yet) get the prerendered sign-in screen; the worker serves index.html.
            globIgnores: ['**/node_modules/**', 'sign-in.html'],
            navigateFallback: 'index.html',
            navigateFallbackDenylist: [/^\/api(\/|$)/],
            cleanupOutdatedCaches: true,
            // No skipWaiting: a new version waits for the user's Reload. clientsClaim only acts when a
            // worker activates (first install, or after that Reload), so the page it claims is current.
            clientsClaim: true,
            runtimeCaching: [],
          },
          devOptions: { enabled: false },
        }),
        prerenderSignIn(() => chunks.boot),
        chunks.plugin,
        precompress(),
      ],
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      // Panda's generated styled-system is side-effect free (recipes and patterns are built where they
      // are exported): a barrel import (`styled-system/recipes`) keeps only the recipes used, not all
      // eight, in the first screen's file (decision 077). Its CSS is imported elsewhere, not matched.
      treeshake: { moduleSideEffects: [{ test: /[\\/]styled-system[\\/].*\.mjs$/, sideEffects: false }] },
      output: { codeSplitting: { groups: chunks.groups } },
    },
  },
});
