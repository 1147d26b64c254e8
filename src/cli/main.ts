/**
 * The `bqemu` command line: `serve` (the emulator), `credentials` (a service-account key file for
 * it), `corpus run` (the conformance runner) and `corpus record` (the baseline recorder).
 * Every serve flag has a `BQEMU_*` environment equivalent (flag wins); the flags, variables and
 * defaults are the knob table of src/config/config.ts, resolved once into one EmulatorConfig.
 */
import { Command, Option } from 'commander';
import { ConfigError, KNOBS, parseFlags, resolveConfig, type EmulatorConfig } from '../config/config.js';
import { createServiceAccountKey } from '../server/service-account.js';
import { favourMainThread, sweepArrayBuffersInPause } from '../config/limits.js';

const program = new Command();
program.name('bqemu').description('A local emulator of Google BigQuery');

// The default command, so goccy/bigquery-emulator's command lines (`--project=p --dataset=d …`) carry over as they are.
const serve = program.command('serve', { isDefault: true }).description('Serve BigQuery REST v2 (and gRPC storage) locally');
for (const k of KNOBS) {
  // No commander defaults: an absent flag stays undefined, so the environment and the defaults apply (resolveConfig).
  const o = new Option(k.flag, `${k.help} (${k.env}; default ${k.defaultText})`);
  if ('repeatable' in k && k.repeatable) o.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
  serve.addOption(o);
}
serve.action(async (o: Record<string, unknown>) => {
  const t0 = Date.now();
  let config: EmulatorConfig;
  try {
    config = resolveConfig(parseFlags(o), { allEnv: true, defaultLogLevel: 'info' });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`bqemu serve: ${e.message}\n`);
    process.exit(2);
  }
  // Lazy on purpose, not cycle-breaking (cli is the top layer): the analyzer child spawns before
  // the server's modules (DuckDB, fastify) load, and other subcommands never load them.
  const { createLogger } = await import('../config/logger.js');
  const log = createLogger(config.logLevel, undefined, config.logFormat);
  const { prespawnAnalyzer, startAnalyzerLauncher } = await import('../analyzer/process.js');
  prespawnAnalyzer(log.child({ component: 'analyzer' })); // boots while the rest loads
  const { startEmulator } = await import('../server/server.js');
  sweepArrayBuffersInPause();
  if (config.storageEmulatorHost) {
    // Lazy too: the Cloud Storage client (@google-cloud/storage, google-auth-library: 60–80 ms of
    // the cold start) loads only when a service is named (src/engine/storage-uris.ts).
    const [{ provideCloudStorage }, { openCloudStorage }] = await Promise.all([import('../engine/storage-uris.js'), import('../engine/cloud-storage-client.js')]);
    provideCloudStorage(openCloudStorage);
  }
  const emu = await startEmulator({ ...config, logger: log }).catch((e: unknown) => {
    // A seed file (--data-from-yaml) that cannot be loaded: the message names it.
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`bqemu serve: ${e.message}\n`);
    process.exit(2);
  });
  const stop = async () => {
    await emu.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('exit', () => emu.engine.analyzer.stop());
  // Written once the handlers above are in place: a supervisor may signal as soon as it reads it.
  process.stdout.write(`bqemu serving BigQuery REST v2 on ${emu.url} and the Storage Read and Write APIs (gRPC) on ${emu.grpcAddress} (project ${emu.projectId}${config.dataDir ? `, data in ${config.dataDir}` : ', in memory'}) — ready in ${Date.now() - t0} ms\n`);
  // A second later: its start would compete for the CPU with the first queries' (cold start).
  setTimeout(startAnalyzerLauncher, 1000).unref();
  // The event loop first on a loaded machine (src/config/limits.ts favourMainThread; fuzz run A/B
  // at load ~3: SELECT n p99 101 → 85 ms, requests served +23 %); again once the threads started
  // on first use exist.
  favourMainThread();
  setTimeout(favourMainThread, 2000).unref();
  // Not set: V8's --optimize-for-size once serving (RSS growth over 10,000 small queries 71.5 →
  // ~30 MB, bench/results/2026-11-26-cold-start-2.md) cost the fuzz run's second client p99 109 →
  // 159 ms, event-loop lag p99 95 → 316 ms and 21 % of the requests served (3-minute A/B, load ~4):
  // a smaller heap is collected more often on the one thread that answers every request.
});

program
  .command('credentials')
  .description('Print a service-account key file whose token_uri is the emulator (bqemu credentials > key.json; GOOGLE_APPLICATION_CREDENTIALS=key.json)')
  .option('--endpoint <url>', "the emulator's REST URL (default http://127.0.0.1:<BQEMU_PORT or 9050>)")
  .option('--project <id>', 'project_id of the key (default BQEMU_PROJECT or test-project)')
  .option('--email <email>', 'the service account (default bqemu@<project>.iam.gserviceaccount.com)')
  .action(async (o: { endpoint?: string; project?: string; email?: string }) => {
    const projectId = o.project ?? (process.env.BQEMU_PROJECT || 'test-project');
    const endpoint = o.endpoint ?? `http://127.0.0.1:${process.env.BQEMU_PORT || 9050}`;
    const key = await createServiceAccountKey({ endpoint, projectId, clientEmail: o.email });
    process.stdout.write(`${JSON.stringify(key, null, 2)}\n`);
  });

/**
 * Loads a `corpus` subcommand's module. Its client libraries (`@google-cloud/bigquery`,
 * `google-auth-library`) are optional peer dependencies of the npm package, so `serve` never needs
 * them; when one is missing this says which to install and exits with status 2.
 */
async function tooling<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(String((e as Error)?.message))?.[1];
    if ((e as { code?: string })?.code !== 'ERR_MODULE_NOT_FOUND' || !missing) throw e;
    process.stderr.write(`bqemu corpus: needs the package ${missing} (npm install --save-dev @google-cloud/bigquery google-auth-library)\n`);
    process.exit(2);
  }
}

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
    // Lazy, not cycle-breaking: `serve` never loads the conformance tooling.
    const { corpusRun } = await tooling(() => import('../conformance/cli.js'));
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
    // Lazy, not cycle-breaking: `serve` never loads the conformance tooling.
    const { recordCorpus } = await tooling(() => import('../conformance/recorder.js'));
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
    // Lazy, not cycle-breaking: `serve` never loads the conformance tooling.
    const { corpusCoverage } = await tooling(() => import('../conformance/coverage.js'));
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
    // Lazy, not cycle-breaking: `serve` never loads the conformance tooling.
    const { corpusDocs } = await tooling(() => import('../conformance/docs.js'));
    process.exit(await corpusDocs({ cases: o.cases, json: o.json, filter: o.filter, endpoint: o.endpoint, concurrency: Number(o.concurrency) }));
  });

// Not awaited at the top level: the bundle bin/bqemu.js runs is CommonJS (scripts/build-bundle.mjs).
program.parseAsync(process.argv).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
