/**
 * Import boundaries (docs/decisions/032-import-boundaries.md), checked by `npm run lint:boundaries`.
 *
 * contract/ is shared by the server and the SPA and knows neither; server/ and src/ never import
 * each other. Inside the SPA a folder imports only folders below it:
 *
 *   routes → components → machines → api → lib → db
 *
 * (contract/, styled-system/ and src/theme may be imported from anywhere in the SPA; main.tsx,
 * routeTree.gen.ts and prerender/ are entry points and may import any layer.)
 * Type-only imports count too: a type couples the two folders as much as a value does.
 *
 * The server reads from the bottom up (docs/decisions/055-server-layers.md): no import cycle anywhere,
 * server/domain never imports server/http or server/routes (a route hands the domain values, e.g. the
 * client address as a RequestMeta), and the product (src/) never imports the tests (tests/), except a
 * colocated `*.test.ts(x)` using the shared test setup.
 */
const SPA_LAYERS = ['routes', 'components', 'machines', 'api', 'lib', 'db'];

/** One rule per layer: it may not import any layer above it. */
const layerRules = SPA_LAYERS.slice(1).map((layer, i) => {
  const above = SPA_LAYERS.slice(0, i + 1);
  return {
    name: `spa-${layer}-imports-only-below`,
    comment: `src/${layer} may import only ${SPA_LAYERS.slice(i + 2).join(', ') || 'no other SPA layer'} (of the SPA layers), never ${above.join(', ')} (routes → components → machines → api → lib → db).`,
    severity: 'error',
    from: { path: `^src/${layer}/` },
    to: { path: `^src/(${above.join('|')})/` },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'contract-imports-nothing-of-server-or-spa',
      comment: 'contract/ is shared by both sides and depends on neither.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(server|src)/' },
    },
    {
      name: 'server-never-imports-spa',
      comment: 'server/ shares only contract/ with the SPA.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/' },
    },
    {
      name: 'spa-never-imports-server',
      comment: 'src/ shares only contract/ with the server.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere: a module can be read after the ones it imports (decision 055).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-domain-never-imports-http-or-routes',
      comment:
        'server/domain holds the rules; the HTTP layer (server/http, server/routes) reads the request and calls it with values (decision 055).',
      severity: 'error',
      from: { path: '^server/domain/' },
      to: { path: '^server/(http|routes)/' },
    },
    {
      name: 'src-never-imports-tests',
      comment:
        'The product never depends on its tests: flow walks live in tests/flows/walks (decision 055); only colocated test files use tests/setup.',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^tests/' },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    // tests/.tmp holds builds and scratch copies (e2e, flows, recipes): not the repository's code.
    exclude: { path: ['^styled-system/', '^node_modules/', '^tests/[.]tmp/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
