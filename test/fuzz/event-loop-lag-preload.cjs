// Preloaded into a spawned emulator (`node --require <this file> bin/bqemu.js serve …`) by the fuzz
// and soak harnesses: every second, appends one JSON line to $BQEMU_LAG_FILE with the event-loop
// delay of the past second (ms: p50, p99, max, from node:perf_hooks monitorEventLoopDelay), the
// process RSS and the V8 heap in use (bytes). Touches nothing else in the process — CommonJS and
// `--require`, not `--import`: loading an ES module goes through libuv's thread pool and would fix
// its size before bin/bqemu.js sets it.
'use strict';
const fs = require('node:fs');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { isMainThread } = require('node:worker_threads');

const file = process.env.BQEMU_LAG_FILE;
// Worker threads inherit `--require`: only the main thread's loop (the one every request runs on)
// is measured — a JavaScript UDF worker running a UDF for seconds is not a stall of the server.
if (file && isMainThread) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const timer = setInterval(() => {
    const line = { t: Date.now(), p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
    h.reset();
    try {
      fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // the harness removed the file: nothing to report to
    }
  }, 1000);
  timer.unref();
}
