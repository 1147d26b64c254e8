/**
 * The npm package as a user gets it: `npm pack` of this checkout, the tarball unpacked into a
 * temporary project's node_modules (as npm installs it), and each test-runner recipe of
 * test/package-recipes/ run there by its own runner against `import { startEmulator } from 'bqemu'`.
 *
 * Offline by construction: the tarball's dependencies are this checkout's node_modules, linked
 * into the temporary project (a clean clone after `npm ci` has them all). A runner not installed in
 * node_modules (jest, mocha: devDependencies) skips its recipe, saying so in the test name.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFreshBuild } from './helpers/fresh-build.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const recipes = path.join(root, 'test', 'package-recipes');
const installed = (pkg: string) => fs.existsSync(path.join(root, 'node_modules', pkg, 'package.json'));

let tmp = '';
let tarball = '';

/** The environment of a nested runner: none of this vitest run's own variables. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(VITEST|VITE_|NODE_OPTIONS$|TEST$|JEST_WORKER_ID$)/.test(k)) env[k] = v;
  return { ...env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' };
}

/** Copies one recipe folder into the temporary project tree; returns its path. */
function project(name: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(path.join(recipes, name), dir, { recursive: true });
  return dir;
}

async function runIn(dir: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

beforeAll(async () => {
  // `npm pack` would run `prepare` (the build); it is run here only when dist/ is stale.
  await ensureFreshBuild(root);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-pack-'));
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root, maxBuffer: 64 << 20 });
  tarball = path.join(tmp, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  const modules = path.join(tmp, 'node_modules');
  fs.mkdirSync(path.join(modules, 'bqemu'), { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', path.join(modules, 'bqemu'), '--strip-components=1']);
  for (const e of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (e === 'bqemu' || e === '.bin' || e.startsWith('.')) continue;
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules', e)), path.join(modules, e));
  }
  fs.mkdirSync(path.join(modules, '.bin'));
  fs.symlinkSync('../bqemu/bin/bqemu.js', path.join(modules, '.bin', 'bqemu'));
}, 180_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('ships the build, the types and the command, without tests or local state', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 64 << 20 });
    const files = stdout.split('\n');
    expect(files).toContain('package/dist/cli/start-emulator.js');
    expect(files).toContain('package/dist/cli/start-emulator.d.ts');
    expect(files).toContain('package/bin/bqemu.js');
    expect(files.filter((f) => /\.test\.(ts|js)$/.test(f))).toEqual([]);
    expect(files.filter((f) => /^package\/(node_modules|test|conformance)\//.test(f))).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(tmp, 'node_modules', 'bqemu', 'package.json'), 'utf8'));
    expect(pkg.exports['.'].types).toBe('./dist/cli/start-emulator.d.ts');
  });

  it('npx bqemu serve starts the emulator from the installed package', async () => {
    const child = spawn('npx', ['--no-install', 'bqemu', 'serve', '--port', '0', '--grpc-port', '0', '--log-level', 'warn'], { cwd: tmp, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('ready in')) resolve(out);
        });
        child.stderr.on('data', (d) => (out += d));
        child.on('close', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const url = /on (http:\/\/\S+)/.exec(line)![1]!;
      // The real BigQuery answers an unknown dataset with 404 notFound.
      const res = await fetch(`${url}/bigquery/v2/projects/test-project/datasets/nope`);
      expect(res.status).toBe(404);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  }, 120_000);

  it('the package typechecks for a TypeScript user', async () => {
    const dir = path.join(tmp, 'typescript-user');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
    fs.writeFileSync(
      path.join(dir, 'use.ts'),
      "import { startEmulator, type RunningEmulator } from 'bqemu';\nconst e: RunningEmulator = await startEmulator({ port: 0, projectId: 'p', dataset: ['a', 'b'], logLevel: 'warn' });\nconst u: string = e.restUrl + e.grpcUrl + e.projectId;\nawait e.stop();\nexport { u };\n",
    );
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['use.ts'] }));
    const r = await runIn(dir, [path.join(tmp, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);
});

describe('test-runner recipes (test/package-recipes/)', () => {
  it('vitest globalSetup', async () => {
    const dir = project('vitest');
    const r = await runIn(dir, [path.join(tmp, 'node_modules', 'vitest', 'vitest.mjs'), 'run']);
    expect(r.out).toMatch(/1 passed/);
    expect(r.code, r.out).toBe(0);
  }, 180_000);

  it('node:test before/after', async () => {
    const dir = project('node-test');
    const r = await runIn(dir, ['--test', 'bigquery.test.mjs']);
    expect(r.out).toMatch(/# pass 1/);
    expect(r.code, r.out).toBe(0);
  }, 180_000);

  it.skipIf(!installed('jest'))(`jest globalSetup/globalTeardown${installed('jest') ? '' : ' (skipped: jest is not installed)'}`, async () => {
    const dir = project('jest');
    // @google-cloud/bigquery's HTTP layer (teeny-request) loads node-fetch with import(), which jest runs only with --experimental-vm-modules (the recipe's npm test script).
    const r = await runIn(dir, ['--experimental-vm-modules', path.join(tmp, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci']);
    expect(r.out).toMatch(/Tests:\s+1 passed/);
    expect(r.code, r.out).toBe(0);
  }, 180_000);

  it.skipIf(!installed('mocha'))(`mocha root hooks${installed('mocha') ? '' : ' (skipped: mocha is not installed)'}`, async () => {
    const dir = project('mocha');
    const r = await runIn(dir, [path.join(tmp, 'node_modules', 'mocha', 'bin', 'mocha.js')]);
    expect(r.out).toMatch(/1 passing/);
    expect(r.code, r.out).toBe(0);
  }, 180_000);
});
