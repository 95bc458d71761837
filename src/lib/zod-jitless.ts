import { z } from 'zod/mini';

/**
 * The browser runs under a strict Content-Security-Policy without 'unsafe-eval'. Zod compiles an
 * object's parser with `new Function` unless told not to, and its one probe for that (caught, so
 * nothing breaks) is still reported as a `securitypolicyviolation` on every page load. jitless
 * skips the probe and the compiled parser. It must run before any schema is built: main.tsx
 * imports this module first.
 */
z.config({ jitless: true });
