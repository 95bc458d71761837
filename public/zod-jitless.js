// Loaded before the app (index.html): Zod reads its global config from here when it loads. Jitless,
// so it never probes for `new Function`, which the server's Content-Security-Policy (no
// 'unsafe-eval') reports as a violation; the SPA's schemas are small (decision 015).
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
