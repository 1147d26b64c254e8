#!/usr/bin/env node
// Compiles src/ to dist/ (plain ESM JavaScript) so the emulator starts without compiling
// TypeScript at run time, copies the JSON assets, and stamps the build. bin/bqemu.js falls back
// to tsx when src/ is newer than the stamp.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateResolvedAst, RESOLVED_AST_OUT } from './gen-resolved-ast.mjs';
import { generateRestTypes, REST_TYPES_OUT } from './gen-rest-types.mjs';
import { buildConsole } from './build-console.mjs';
import { buildBundle, writeCodeCache } from './build-bundle.mjs';
import { ANALYZER_CODECS_OUT, generateAnalyzerCodecs } from './gen-analyzer-codecs.mjs';
import { splitAnalyzerDescriptor } from './split-analyzer-protos.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The generated types (checked in, so tsx runs without a build) are regenerated from their sources:
// the analyzer's resolved_ast.proto and the REST discovery document (test/generated-types.test.ts
// fails when the checked-in files are stale).
for (const [out, generate] of [
  [RESOLVED_AST_OUT, generateResolvedAst],
  [REST_TYPES_OUT, generateRestTypes],
]) {
  fs.mkdirSync(path.dirname(path.join(root, out)), { recursive: true });
  fs.writeFileSync(path.join(root, out), generate());
}
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
try {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
} catch {
  // Type errors still emit JavaScript; `npm run typecheck` (run by CI) is where they fail.
  console.error('build: TypeScript reported errors (JavaScript was emitted anyway)');
}
const copy = (dir) => {
  for (const e of fs.readdirSync(path.join(root, 'src', dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) copy(rel);
    else if (e.name.endsWith('.json')) fs.copyFileSync(path.join(root, 'src', rel), path.join(root, 'dist', rel));
  }
};
copy('');
// The analyzer's protos as a protobufjs JSON descriptor: loading it is about twice as fast as
// parsing the .proto files at every start (scripts/gen-analyzer-codecs.mjs reads it).
const { default: protobuf } = await import('protobufjs');
const protoDir = path.join(root, 'node_modules/@fivetrandevelopers/zetasql/lib/zetasql/protos');
const protoRoot = new protobuf.Root();
protoRoot.resolvePath = (_origin, target) => {
  for (const d of [protoDir, path.join(root, 'node_modules/protobufjs')]) {
    const p = path.join(d, target);
    if (fs.existsSync(p)) return p;
  }
  return target;
};
protoRoot.loadSync('local_service.proto', { keepCase: false });
fs.writeFileSync(path.join(root, 'dist', 'analyzer', 'zetasql-protos.json'), JSON.stringify(protoRoot.toJSON()));
// The same split in two, what the emulator loads (src/analyzer/analyzer-protos.ts): the types of
// its own calls at start, the rest when a method first needs them (scripts/split-analyzer-protos.mjs).
const { core, rest } = splitAnalyzerDescriptor(protoRoot);
fs.writeFileSync(path.join(root, 'dist', 'analyzer', 'zetasql-protos-core.json'), JSON.stringify(core));
fs.writeFileSync(path.join(root, 'dist', 'analyzer', 'zetasql-protos-rest.json'), JSON.stringify(rest));
// Their codecs written out ahead of time, over the stand-in tsc compiled (src/analyzer/analyzer-codecs.ts).
fs.writeFileSync(path.join(root, ANALYZER_CODECS_OUT), generateAnalyzerCodecs());
// The web console's bundle (dist/web-console/, served by src/server/console.ts).
await buildConsole();
// The command line as one module (bin/bqemu.js runs it: faster cold start).
const bundled = await buildBundle();
fs.writeFileSync(path.join(root, 'dist', '.build-stamp'), new Date().toISOString());
// Its V8 code cache, from a training run of the fresh build (scripts/build-bundle.mjs).
if (bundled) await writeCodeCache();
