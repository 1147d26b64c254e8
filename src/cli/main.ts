/**
 * The `bqemu` command line: `serve` (the emulator), `corpus run` (the conformance runner) and
 * `corpus record` (the baseline recorder).
 * Every serve flag has a `BQEMU_*` environment equivalent (flag wins).
 */
import path from 'node:path';
import { Command } from 'commander';

const env = (name: string): string | undefined => process.env[`BQEMU_${name}`] || undefined;

/** Collects a repeatable flag's values (commander's `--flag a --flag b`). */
const collect = (v: string, prev: string[]) => [...prev, v];
/** A comma-separated environment list. */
const envList = (name: string): string[] => (env(name) ?? '').split(',').map((x) => x.trim()).filter(Boolean);

const program = new Command();
program.name('bqemu').description('A local emulator of Google BigQuery');

program
  .command('serve')
  .description('Serve BigQuery REST v2 (and gRPC storage) locally')
  .option('--host <host>', 'address to listen on (BQEMU_HOST)', env('HOST') ?? '127.0.0.1')
  .option('--port <port>', 'REST port (BQEMU_PORT)', env('PORT') ?? '9050')
  .option('--grpc-port <port>', 'gRPC storage API port (BQEMU_GRPC_PORT)', env('GRPC_PORT') ?? '9060')
  .option('--project <id>', 'default project id (BQEMU_PROJECT)', env('PROJECT') ?? 'test-project')
  .option('--dataset <id>', 'dataset created at start in the default project (BQEMU_DATASET)', env('DATASET'))
  .option('--data-dir <dir>', 'persist everything in this directory (BQEMU_DATA_DIR); in memory when absent', env('DATA_DIR'))
  .option('--log', 'log every request (BQEMU_LOG=1)', env('LOG') === '1')
  .option(
    '--allow-local-files <dir>',
    `let load jobs and external tables read file:// and absolute-path sources under this directory; repeatable (BQEMU_ALLOW_LOCAL_FILES, directories separated by '${path.delimiter}')`,
    (dir: string, prev: string[] | undefined) => [...(prev ?? []), dir],
  )
  .option('--allowed-host <name>', 'also accept requests whose Host header names this host (repeatable; * = any) (BQEMU_ALLOWED_HOST, comma-separated)', collect, envList('ALLOWED_HOST'))
  .option('--cors-origin <origin>', 'allow browser pages of this origin (e.g. http://localhost:3000) to call the API, with CORS (repeatable) (BQEMU_CORS_ORIGIN, comma-separated)', collect, envList('CORS_ORIGIN'))
  .option('--memory-limit <size>', "DuckDB's memory limit, e.g. 4GB (BQEMU_MEMORY_LIMIT); default half the machine's RAM", env('MEMORY_LIMIT'))
  .option('--temp-dir <dir>', 'where DuckDB spills large queries (BQEMU_TEMP_DIR); default <data-dir>/spill or a private OS temp directory', env('TEMP_DIR'))
  .option('--max-response-mb <n>', 'largest result one query returns before "Response too large to return." (BQEMU_MAX_RESPONSE_MB)', env('MAX_RESPONSE_MB') ?? '512')
  .action(async (o) => {
    const t0 = Date.now();
    const { prespawnAnalyzer } = await import('../analyzer/process.js');
    prespawnAnalyzer(); // boots while the rest loads
    const { startEmulator } = await import('../server/server.js');
    const emu = await startEmulator({
      host: o.host,
      port: Number(o.port),
      grpcPort: Number(o.grpcPort),
      projectId: o.project,
      dataset: o.dataset,
      dataDir: o.dataDir,
      quiet: !o.log,
      allowLocalFiles: o.allowLocalFiles ?? (env('ALLOW_LOCAL_FILES')?.split(path.delimiter).filter(Boolean) ?? []),
      allowedHosts: o.allowedHost,
      corsOrigins: o.corsOrigin,
      memoryLimit: o.memoryLimit,
      tempDirectory: o.tempDir,
      maxResponseBytes: Number(o.maxResponseMb) * 1024 * 1024,
    });
    process.stdout.write(`bqemu serving BigQuery REST v2 on ${emu.url} (project ${emu.projectId}${o.dataDir ? `, data in ${o.dataDir}` : ', in memory'}) — ready in ${Date.now() - t0} ms\n`);
    const stop = async () => {
      await emu.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('exit', () => emu.engine.analyzer.stop());
  });

const corpus = program.command('corpus').description('The conformance corpus');
corpus
  .command('run')
  .description('Run fixtures against the emulator (in-process unless --endpoint is given)')
  .option('--corpus <dir>', 'fixture root (<phase>/<name>/)', 'conformance/fixtures')
  .option('--endpoint <url>', 'a running emulator (or BigQuery) to test')
  .option('--json <file>', 'write per-fixture results as JSON')
  .option('--filter <s>', 'only fixture ids containing this text')
  .option('--concurrency <n>', 'fixtures run at once', '4')
  .option('--strict', 'strict mode: divergence registry, pending list and the pass gate decide the exit code')
  .option('--divergences <file>', 'divergence registry (default conformance/divergences.json)')
  .option('--pending <file>', 'pending list (default conformance/pending.json)')
  .option('--update-pending', 'rewrite the pending list from this run (implies --strict); only removes entries unless --allow-grow')
  .option('--allow-grow', 'with --update-pending: also add new failures to the pending list')
  .action(async (o) => {
    const { corpusRun } = await import('../conformance/cli.js');
    const code = await corpusRun({
      corpus: o.corpus,
      endpoint: o.endpoint,
      json: o.json,
      filter: o.filter,
      concurrency: Number(o.concurrency),
      strict: o.strict === true,
      divergences: o.divergences,
      pending: o.pending,
      updatePending: o.updatePending === true,
      allowGrow: o.allowGrow === true,
    });
    process.exit(code);
  });

corpus
  .command('record')
  .description('Record expected.json baselines from real BigQuery (local operator action; refuses under CI)')
  .option('--corpus <dir>', 'fixture root (<phase>/<name>/)', 'conformance/fixtures')
  .option('--endpoint <url>', 'record against this endpoint instead of BigQuery (fake credentials unless GOOGLE_APPLICATION_CREDENTIALS is set)')
  .option('--project <id>', 'project to record in (default: the credentials\' project, or bqemu-conformance with --endpoint)')
  .option('--force', 're-record fixtures that already have an expected.json')
  .option('--max-bytes <n>', 'per-fixture byte-scan cap from the dry-run estimate', '1073741824')
  .option('--filter <s>', 'only fixture ids matching (comma-separated globs or substrings)')
  .option('--location <loc>', 'location of the per-fixture datasets', 'US')
  .action(async (o) => {
    const { recordCorpus } = await import('../conformance/recorder.js');
    const code = await recordCorpus({
      corpus: o.corpus,
      endpoint: o.endpoint,
      project: o.project,
      force: o.force === true,
      maxBytes: Number(o.maxBytes),
      filter: o.filter,
      location: o.location,
    });
    process.exit(code);
  });

corpus
  .command('coverage')
  .description('Coverage of the corpus: surface items by depth tier, variation tags, broad-but-shallow items')
  .option('--corpus <dir>', 'fixture root (default conformance/fixtures)')
  .option('--html <file>', 'also write a static HTML report')
  .option('--no-analyzer', 'take builtin function names from the function table only')
  .action(async (o) => {
    const { corpusCoverage } = await import('../conformance/coverage.js');
    process.exit(await corpusCoverage({ corpus: o.corpus, html: o.html, analyzer: o.analyzer }));
  });
corpus
  .command('docs')
  .description('Run the GoogleSQL documentation examples and compare in the docs display style')
  .option('--cases <file>', 'JSONL of documentation examples', 'conformance/docs-examples/visible.jsonl')
  .option('--json <file>', 'write per-case results as JSON')
  .option('--filter <s>', 'only case ids or doc pages containing this text (comma-separated, globs allowed)')
  .option('--endpoint <url>', 'a running emulator (or BigQuery) to test; in-process otherwise')
  .option('--concurrency <n>', 'cases run at once', '4')
  .action(async (o) => {
    const { corpusDocs } = await import('../conformance/docs.js');
    process.exit(await corpusDocs({ cases: o.cases, json: o.json, filter: o.filter, endpoint: o.endpoint, concurrency: Number(o.concurrency) }));
  });

await program.parseAsync(process.argv);
