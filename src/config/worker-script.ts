/**
 * How the emulator starts its worker threads (the JavaScript UDF sandbox, the analyzer-answer
 * decoder): from the compiled `.js` beside the calling module (dist/), else from the TypeScript
 * source through tsx's loader registered inside the worker — running from src/ under tsx or vitest,
 * a worker neither inherits the main thread's loader nor takes `--import` in `execArgv`.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The `Worker` arguments for the worker module `name` (without extension) beside `callerUrl`
 * (the caller's `import.meta.url`): `script` is a file URL (`evalCode` false) or code to evaluate.
 */
export function workerScript(callerUrl: string, name: string): { script: URL | string; evalCode: boolean } {
  const js = new URL(`./${name}.js`, callerUrl);
  if (fs.existsSync(fileURLToPath(js))) return { script: js, evalCode: false };
  const tsx = pathToFileURL(createRequire(callerUrl).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const ts = new URL(`./${name}.ts`, callerUrl).href;
  return { script: `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(ts)}); });`, evalCode: true };
}
