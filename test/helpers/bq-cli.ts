/**
 * Test helper: runs the `bq` CLI (Google Cloud SDK) against an emulator, as test/bq-cli.test.ts
 * does and docs/ARCHITECTURE.md §7 describes: `CLOUDSDK_CONFIG=<empty dir> bq --api=URL
 * --oauth_access_token=fake --project_id=P …`, with a stub `gcloud` on PATH (bq asks `gcloud
 * config list` for defaults on every call; an empty config answers `{}`).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The bq executable on PATH, if any. */
export function findBq(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, 'bq');
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

export interface BqResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface BqRunner {
  /** Runs `bq --api=… --format=json <args>`; resolves with the exit code and output (never rejects on a non-zero exit). */
  run(...args: string[]): Promise<BqResult>;
  /** Removes the temporary configuration folders. */
  cleanup(): void;
}

/** A runner of the `bq` executable `bqPath` against the emulator at `url` for project `projectId`. */
export function bqRunner(bqPath: string, url: string, projectId: string): BqRunner {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-cloudsdk-'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bqemu-cli-'));
  const fakeBin = path.join(work, 'bin');
  fs.mkdirSync(fakeBin);
  fs.writeFileSync(path.join(fakeBin, 'gcloud'), '#!/bin/sh\necho "{}"\n', { mode: 0o755 });
  return {
    run(...args: string[]) {
      const argv = [`--api=${url}`, '--oauth_access_token=fake', `--project_id=${projectId}`, '--format=json', ...args];
      return new Promise((resolve, reject) => {
        const env = { ...process.env, CLOUDSDK_CONFIG: configDir, PATH: `${fakeBin}${path.delimiter}${process.env.PATH ?? ''}` };
        execFile(bqPath, argv, { timeout: 30_000, env }, (err, stdout, stderr) => {
          if (err && (err as NodeJS.ErrnoException & { killed?: boolean }).killed) return reject(new Error(`bq ${args.join(' ')} timed out`));
          const code = err ? Number((err as { code?: number }).code ?? 1) : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        });
      });
    },
    cleanup() {
      for (const d of [configDir, work]) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}
