/**
 * Test helper: builds dist/ (scripts/build.mjs) only when a file under src/ is newer than its build
 * stamp — the rule bin/bqemu.js applies — so a fresh build other test files may be using is not
 * replaced.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/** Newest modification time under `dir`, ms. */
function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/** Runs the build in `root` when dist/ is older than src/ (or absent). */
export async function ensureFreshBuild(root: string): Promise<void> {
  let stamp = 0;
  try {
    stamp = fs.statSync(path.join(root, 'dist', '.build-stamp')).mtimeMs;
  } catch {
    /* no build yet */
  }
  if (newest(path.join(root, 'src')) > stamp) await promisify(execFile)(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, maxBuffer: 64 << 20 });
}
