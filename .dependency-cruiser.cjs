/**
 * The layer rules of bqemu's source tree, checked by `npm run deps:check` and by
 * test/architecture-layers.test.ts (both run scripts/dependency-layers.ts).
 *
 * Layers, bottom to top. A module may import its own layer and any layer BELOW it, never one above:
 *
 *   0  config, types, errors, geo   value types, decimal/temporal codecs, the error catalogue, geodesy
 *   1  analyzer                     the ZetaSQL child process, its gRPC client and answer decoding
 *   2  catalog                      the in-memory/on-disk store of datasets, tables, routines
 *   3  wire                         REST JSON value codecs (cells, query parameters) and resource shapes
 *   4  functions                    the GoogleSQL function table lowered to DuckDB macros
 *   5  engine                       resolved AST -> DuckDB SQL, statements, DDL/DML, session state
 *   6  scripting                    the script interpreter (BEGIN…END, variables, procedures); calls the engine
 *   7  jobs                         the job manager: queueing, load/extract/copy, sessions; calls scripting
 *   8  server                       fastify REST v2 routes, caller identity, job-resource rendering
 *   9  conformance                  tooling above the server (corpus runner, recorder, coverage)
 *  10  cli                          the `bqemu` command
 *
 * `wire` sits below `functions`/`engine`: it only converts values and resources to and from
 * BigQuery's JSON (it imports types, errors and catalog shapes); rendering a job resource needs the
 * job manager's records, so that renderer lives in src/server/rest/job-resources.ts.
 *
 * Every import counts, type-only ones included (`import type`, `import('x').T`), and a module may
 * not close a cycle with any other. Test files (`*.test.ts`) may import anything.
 *
 * Note: `npx depcruise src --config .dependency-cruiser.cjs` cruises 0 modules here, because
 * dependency-cruiser 17 parses TypeScript only with typescript < 7 installed (we have 7.x, the
 * native compiler without the JS API). scripts/dependency-layers.ts therefore strips the types with
 * esbuild (keeping type-only imports as imports) into a temporary JavaScript mirror of src/ and
 * cruises that with these rules; reports name the original `.ts` files.
 */
const LAYERS = [
  ['config', 'types', 'errors', 'geo'],
  ['analyzer'],
  ['catalog'],
  ['wire'],
  ['functions'],
  ['engine'],
  ['scripting'],
  ['jobs'],
  ['server'],
  ['conformance'],
  ['cli'],
];

/** Edges allowed to run up a layer: none. (The form — `{from, to}` path patterns — is kept for a migration that needs one.) */
const KNOWN_EXCEPTIONS = [];

/**
 * Import cycles exempted from no-circular: none. (A cycle would be exempt only when every module in it
 * matches one of these patterns.)
 */
const KNOWN_CYCLES = [];

/** The modules allowed an `await import()`: lazy loading of heavy subcommands, never cycle-breaking. */
const LAZY_LOADERS = [
  '^src/cli/main\\.(js|ts)$', // `serve` spawns the analyzer before loading the server; subcommands load their tooling
  '^src/conformance/(cli|docs)\\.(js|ts)$', // the in-process emulator, only without --endpoint
];

const folders = (names) => `^src/(${names.join('|')})/`;

const layerRules = LAYERS.slice(0, -1).map((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  const exceptions = KNOWN_EXCEPTIONS.filter((e) => new RegExp(e.from).test(`src/${layer[0]}/`));
  return {
    name: `layer-${layer.join('-')}`,
    comment: `${layer.join(', ')} may not import a layer above it (${above.join(', ')})`,
    severity: 'error',
    from: { path: folders(layer), pathNot: '\\.test\\.(js|ts)$' },
    to: { path: folders(above), ...(exceptions.length ? { pathNot: exceptions.map((e) => e.to) } : {}) },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycle, type-only imports included',
      severity: 'error',
      from: { pathNot: KNOWN_CYCLES },
      to: { circular: true },
    },
    {
      name: 'no-dynamic-import',
      comment:
        'no in-function import(): a dynamic import may only load a heavy subcommand lazily (each one says why it is not cycle-breaking)',
      severity: 'error',
      from: { path: '^src/', pathNot: [...LAZY_LOADERS, '\\.test\\.(js|ts)$'] },
      to: { dynamic: true },
    },
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
// Not part of dependency-cruiser's schema (non-enumerable, so `depcruise --validate` accepts the file).
Object.defineProperty(module.exports, 'LAYERS', { value: LAYERS, enumerable: false });
Object.defineProperty(module.exports, 'KNOWN_EXCEPTIONS', { value: KNOWN_EXCEPTIONS, enumerable: false });
Object.defineProperty(module.exports, 'KNOWN_CYCLES', { value: KNOWN_CYCLES, enumerable: false });
