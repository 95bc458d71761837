import { expect, it } from 'vitest';

/**
 * main.tsx's first import sets zod's jitless through `globalThis.__zod_globalConfig`, without
 * loading zod (decision 077). This checks that the installed zod reads it: loaded after the
 * setting, zod reports jitless and builds and parses an object schema without ever constructing a
 * `Function` (the compiled parser, or the probe a strict CSP reports as a violation).
 */
it('zod loaded after ./zod-jitless compiles nothing', async () => {
  await import('./zod-jitless');
  const constructed: unknown[][] = [];
  const original = globalThis.Function;
  globalThis.Function = new Proxy(original, {
    construct(target, args, newTarget) {
      constructed.push(args);
      return Reflect.construct(target, args, newTarget);
    },
    apply(target, self, args) {
      constructed.push(args);
      return Reflect.apply(target, self, args);
    },
  });
  try {
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    const schema = z.object({ email: z.email(), password: z.string().min(1) });
    for (let i = 0; i < 3; i++)
      expect(schema.parse({ email: 'ada@example.com', password: 'x' })).toEqual({
        email: 'ada@example.com',
        password: 'x',
      });
    expect(constructed).toEqual([]);
  } finally {
    globalThis.Function = original;
  }
});
