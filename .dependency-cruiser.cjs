/**
 * The import rules CI enforces (`npm run check:architecture`): no cycles anywhere, libraries never import an
 * app, and a feature folder of the API reaches another only through that folder's `index.ts` (its module and
 * what the module exports) or its example data (`<name>.example.ts`, which imports no code), never into its other
 * files. (`npm run check:architecture` also runs madge --circular over apps and libs, and scripts/check-plumbing.mjs:
 * no resource is named in libs/common, and SQL is team-scoped by construction or listed as unscoped.)
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: split the shared piece into its own file or folder.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'feature-internals',
      severity: 'error',
      comment: 'A feature imports another only through its index.ts (the module and its exports).',
      from: { path: '^apps/api/src/([^/]+)/' },
      to: {
        path: '^apps/api/src/[^/]+/',
        pathNot: ['^apps/api/src/$1/', '^apps/api/src/[^/]+/index\\.ts$', '^apps/api/src/[^/]+/[^/]+\\.example\\.ts$'],
      },
    },
    {
      name: 'example-data',
      severity: 'error',
      comment: 'An example file is plain data any feature may read: it imports only other example files.',
      from: { path: '\\.example\\.ts$' },
      to: { pathNot: '\\.example\\.ts$' },
    },
    {
      name: 'libs-not-apps',
      severity: 'error',
      comment: 'Shared libraries must not depend on an application.',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing (the checks above would silently miss it).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
