/**
 * The browser runs under a strict Content-Security-Policy without 'unsafe-eval'. Zod compiles an
 * object's parser with `new Function` unless told not to, and its one probe for that (caught, so
 * nothing breaks) is still reported as a `securitypolicyviolation` on every page load. jitless
 * skips the probe and the compiled parser. It must be set before any schema is built: main.tsx
 * imports this module first.
 *
 * Zod keeps its global config on `globalThis.__zod_globalConfig` and adopts an object already there
 * (zod 4.4+, colinhacks/zod#5889: one config for every copy of zod). Setting it there, not through
 * `z.config`, keeps zod itself out of the first screen's file: zod arrives with the session, after
 * the sign-in form is live (decision 077). src/lib/zod-jitless.test.ts checks zod reads it.
 */
const zodGlobal = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;

// A module (imported for what it sets), so that its test can import it.
export {};
