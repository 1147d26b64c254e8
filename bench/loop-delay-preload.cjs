// Preloaded into a spawned emulator by `tsx bench/result-paging.ts --loop-delay` (node --require):
// measures the event loop's delay (perf_hooks.monitorEventLoopDelay, 1 ms resolution). On each
// SIGUSR2 it appends the delays since the previous signal (p50, p99, max in ms) as one JSON line to
// the file named by BQEMU_LOOP_DELAY_FILE and starts over.
'use strict';
const fs = require('node:fs');
const { monitorEventLoopDelay } = require('node:perf_hooks');

const file = process.env.BQEMU_LOOP_DELAY_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round(ns / 1e5) / 10;
    fs.appendFileSync(file, JSON.stringify({ p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) }) + '\n');
    h.reset();
  });
}
