import { readFileSync } from 'node:fs';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};
/**
 * The app version the query cache is keyed by (decision 002): the package version plus the build
 * time, so every deployed build starts with an empty IndexedDB query cache.
 */
const appBuild = `${version}+${Date.now().toString(36)}`;

export default defineConfig({
  define: { 'import.meta.env.VITE_APP_BUILD': JSON.stringify(appBuild) },
  plugins: [
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
  ],
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
  build: { outDir: 'dist', sourcemap: true },
});
