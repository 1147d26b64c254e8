/**
 * The configuration (src/config/config.ts): `bqemu serve` flags and `BQEMU_*` environment variables
 * resolve into one EmulatorConfig — flag over environment over default; an embedded emulator
 * (`startEmulator`) reads only the process-wide variables; a value that cannot be used stops
 * `bin/bqemu.js serve` with a message naming the flag or variable and exit status 2.
 * The defaults checked here are the documented ones of `bqemu serve --help` and the README table.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, KNOBS, parseFlags, resolveConfig } from '../src/config/config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('resolveConfig', () => {
  it('fills every default when nothing is given', () => {
    const c = resolveConfig({}, { env: {}, allEnv: true });
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 9050,
      grpcPort: 9060,
      projectId: 'test-project',
      logRequests: false,
      logLevel: 'info',
      allowLocalFiles: [],
      allowedHosts: [],
      corsOrigins: [],
      maxResponseBytes: 512 * 1024 * 1024,
      gcsDir: path.resolve(os.tmpdir(), 'bqemu-gcs'),
      maxRunningJobs: 16,
      sessionIdleMs: 24 * 60 * 60 * 1000,
    });
    expect(c.dataDir).toBeUndefined();
    expect(c.jsUdfTimeoutMs).toBeUndefined();
  });

  it('takes the environment over the default and the flag over the environment', () => {
    const env = { BQEMU_PORT: '9999', BQEMU_PROJECT: 'from-env', BQEMU_LOG_LEVEL: 'warn', BQEMU_MAX_RESPONSE_MB: '2', BQEMU_LOG: '1' };
    const fromEnv = resolveConfig({}, { env, allEnv: true });
    expect(fromEnv).toMatchObject({ port: 9999, projectId: 'from-env', logLevel: 'warn', maxResponseBytes: 2 * 1024 * 1024, logRequests: true });
    const flags = parseFlags({ port: '1234', logLevel: 'DEBUG' });
    expect(resolveConfig(flags, { env, allEnv: true })).toMatchObject({ port: 1234, projectId: 'from-env', logLevel: 'debug' });
  });

  it('splits list variables and adds --allowed-host / --cors-origin flags to the environment\'s list', () => {
    const env = {
      BQEMU_ALLOW_LOCAL_FILES: ['/a', '/b'].join(path.delimiter),
      BQEMU_ALLOWED_HOST: 'one.internal, two.internal',
      BQEMU_CORS_ORIGIN: 'http://localhost:3000',
    };
    const c = resolveConfig(parseFlags({ allowedHost: ['three.internal'] }), { env, allEnv: true });
    expect(c.allowLocalFiles).toEqual(['/a', '/b']);
    expect(c.allowedHosts).toEqual(['one.internal', 'two.internal', 'three.internal']);
    expect(c.corsOrigins).toEqual(['http://localhost:3000']);
    // --allow-local-files replaces the environment's directories.
    expect(resolveConfig(parseFlags({ allowLocalFiles: ['/c'] }), { env, allEnv: true }).allowLocalFiles).toEqual(['/c']);
  });

  it('an embedded emulator reads only the process-wide variables (BQEMU_GCS_DIR, BQEMU_LOG_LEVEL)', () => {
    const env = { BQEMU_PORT: '9999', BQEMU_DATA_DIR: '/nowhere', BQEMU_GCS_DIR: '/tmp/some-gcs', BQEMU_LOG_LEVEL: 'trace' };
    const c = resolveConfig({ port: 0 }, { env });
    expect(c.port).toBe(0);
    expect(c.dataDir).toBeUndefined();
    expect(c.gcsDir).toBe('/tmp/some-gcs');
    expect(c.logLevel).toBe('trace');
  });

  it('refuses a value it cannot use, naming the flag or the variable', () => {
    expect(() => parseFlags({ port: 'abc' })).toThrow(new ConfigError('--port: expected an integer from 0 to 65535, got "abc"'));
    expect(() => parseFlags({ port: '70000' })).toThrow(ConfigError);
    expect(() => parseFlags({ logLevel: 'loud' })).toThrow('--log-level: expected one of trace, debug, info, warn, error, fatal, silent, got "loud"');
    expect(() => resolveConfig({}, { env: { BQEMU_MAX_RUNNING_JOBS: '0' }, allEnv: true })).toThrow('BQEMU_MAX_RUNNING_JOBS: expected an integer from 1 to');
    expect(() => resolveConfig({}, { env: { BQEMU_LOG: 'maybe' }, allEnv: true })).toThrow('BQEMU_LOG: expected 1 or 0, got "maybe"');
  });

  it('lists every knob once, each with a flag, a BQEMU_ variable and a default', () => {
    const keys = KNOBS.map((k) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of KNOBS) {
      expect(k.flag).toMatch(/^--[a-z-]+( <[a-z]+>)?$/);
      expect(k.env).toMatch(/^BQEMU_[A-Z_]+$/);
      expect(k.defaultText).not.toBe('');
    }
  });
});

describe('bin/bqemu.js serve with a bad value', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [path.join(ROOT, 'bin/bqemu.js'), 'serve', ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });

  it('a bad flag exits with status 2 and names the flag, before anything starts', () => {
    const r = run(['--port', 'abc']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bqemu serve: --port: expected an integer from 0 to 65535, got "abc"');
    expect(r.stdout).not.toContain('bqemu serving');
  });

  it('a bad environment variable exits with status 2 and names the variable', () => {
    const r = run(['--port', '0'], { BQEMU_LOG_LEVEL: 'loud' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bqemu serve: BQEMU_LOG_LEVEL: expected one of trace, debug, info, warn, error, fatal, silent, got "loud"');
  });
});
