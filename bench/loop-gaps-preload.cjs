// Preloaded into an emulator (node --require, e.g. BQEMU_NODE_FLAGS for a spawned one) to find
// event-loop blocks: a 2 ms timer on the main thread notes every gap between its ticks longer than
// LOOP_GAP_MIN_MS (default 25) as one JSON line [startMicros, endMicros] in BQEMU_LOOP_GAPS_FILE.
// The times are CLOCK_MONOTONIC microseconds, the clock of V8's CPU profile timestamps, so
// `tsx bench/loop-gaps.ts PROFILE GAPS` can say what the main thread ran in each gap. Worker
// threads (JavaScript UDFs, the answer decoder) load preloads too and are skipped: a UDF running
// for seconds by design is not a stall of the server.
'use strict';
const fs = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const file = process.env.BQEMU_LOOP_GAPS_FILE;
if (file && isMainThread) {
  const minMicros = Number(process.env.LOOP_GAP_MIN_MS ?? 25) * 1000;
  const TICK_MS = 2;
  const gaps = [];
  const now = () => process.hrtime.bigint() / 1000n;
  let last = now();
  setInterval(() => {
    const t = now();
    if (Number(t - last) > minMicros + TICK_MS * 1000) gaps.push([Number(last), Number(t)]);
    last = t;
  }, TICK_MS).unref();
  const flush = () => {
    if (!gaps.length) return;
    try {
      fs.appendFileSync(file, gaps.splice(0).map((g) => JSON.stringify(g)).join('\n') + '\n');
    } catch {
      // An investigation aid: a write that fails loses these gaps, nothing else.
    }
  };
  setInterval(flush, 2000).unref();
  process.on('exit', flush);
}
