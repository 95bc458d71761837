import { z } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * The contract's zod: zod/mini, the functional API over the same core as classic zod (a bundle
 * keeps only the schemas and checks it uses; the browser's sign-in screen loads nothing else).
 * Classic zod sets up its English messages by itself; zod/mini leaves that to the app, and without
 * them every message a schema does not spell out would read 'Invalid input'. An app's own
 * `z.config(z.locales.xx())` still wins.
 */
if (!z.core.globalConfig.localeError) z.config(en());

export { z };
