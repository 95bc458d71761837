/** The build the cache belongs to (Vite `define`, see vite.config.ts); 'dev' under Vitest. */
export const APP_BUILD: string = import.meta.env.VITE_APP_BUILD ?? 'dev';

/** The cache of one user of one build: another user or a new deploy never reads it. */
export const cacheBuster = (appBuild: string, userId: number | string) => `${appBuild}:user-${userId}`;
