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
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['^styled-system/', '^node_modules/'] },
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
