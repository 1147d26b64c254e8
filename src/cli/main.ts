/**
 * The `bqemu` command line: `serve` (the emulator) and `corpus run` (the conformance runner).
 * Every serve flag has a `BQEMU_*` environment equivalent (flag wins).
 */
import { Command } from 'commander';

const env = (name: string): string | undefined => process.env[`BQEMU_${name}`] || undefined;

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
  .action(async (o) => {
    const { startEmulator } = await import('../server/server.js');
    const t0 = Date.now();
    const emu = await startEmulator({
      host: o.host,
      port: Number(o.port),
      grpcPort: Number(o.grpcPort),
      projectId: o.project,
      dataset: o.dataset,
      dataDir: o.dataDir,
      quiet: !o.log,
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
  .action(async (o) => {
    const { corpusRun } = await import('../conformance/cli.js');
    const code = await corpusRun({ corpus: o.corpus, endpoint: o.endpoint, json: o.json, filter: o.filter, concurrency: Number(o.concurrency) });
    process.exit(code);
  });

await program.parseAsync(process.argv);
