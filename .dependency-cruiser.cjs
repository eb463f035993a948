/**
 * The layers of the server and what may import what (docs/decisions/0117-layers-and-module-faces.md):
 * contracts below everything, the platform below the modules, each module reached by others only
 * through its index.ts, the composition root (app.ts, main.ts, cli.ts, resources.ts) above all.
 * `npm run lint` runs it over src/server and src/contracts; tests and benchmarks may reach into any
 * file they test. The browser's code (TSX, which the parser used here does not read) imports only
 * src/web and src/contracts: test/web/web-imports.test.ts holds it to that.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'A file never reaches itself through its imports. A lazy import back (the PostgreSQL driver, loaded only for a server) is not a cycle at load time.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Folders import each other one way only: no two modules depend on each other.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'contracts-stand-alone',
      comment: 'src/contracts is shared by the server and the browser: it imports neither.',
      severity: 'error',
      from: { path: '^src/contracts/' },
      to: { path: '^src/(server|web)/' },
    },
    {
      name: 'platform-below-modules',
      comment:
        'The platform (http, db, storage, jobs, uploads, ...) knows no module and no composition root.',
      severity: 'error',
      from: { path: '^src/server/platform/' },
      to: { path: '^src/server/(modules/|[^/]+\\.ts$)' },
    },
    {
      name: 'modules-below-the-root',
      comment: 'A module is given what it needs; it never imports the composition root.',
      severity: 'error',
      from: { path: '^src/server/modules/' },
      to: { path: '^src/server/[^/]+\\.ts$' },
    },
    {
      name: 'one-face-per-module',
      comment:
        "Another module's files are reached through its index.ts. A dynamic import may name one file, so that what it loads is loaded only when used (docs/decisions/0079).",
      severity: 'error',
      from: { path: '^src/server/modules/([^/]+)/' },
      to: {
        path: '^src/server/modules/[^/]+/',
        pathNot: ['^src/server/modules/$1/', '^src/server/modules/[^/]+/index\\.ts$'],
        dependencyTypesNot: ['dynamic-import'],
      },
    },
    {
      name: 'root-through-faces',
      comment:
        'The composition root reaches a module through its index.ts, or lazily by a dynamic import.',
      severity: 'error',
      from: { path: '^src/server/[^/]+\\.ts$' },
      to: {
        path: '^src/server/modules/[^/]+/',
        pathNot: '^src/server/modules/[^/]+/index\\.ts$',
        dependencyTypesNot: ['dynamic-import'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
