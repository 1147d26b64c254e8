// Preloaded into a spawned emulator by `tsx bench/server-stalls.ts --trace` (node --require): times
// each probe request (an HTTP request carrying the header `x-bqemu-probe: <n>`) inside the emulator
// without changing its code. For every probe it appends one JSON line to BQEMU_PROBE_TRACE_FILE:
//   id       the probe's number (the header's value)
//   at       epoch ms of the request's arrival ('request' event: headers parsed)
//   marks    [what, start, end] in ms after arrival: 'body' (request body read) and each DuckDB call
//            ('duckdb:<binding function>', from the call to its promise settling; the analysis and
//            the wait for a pooled connection come before the first one)
//   busy     at the probe's first DuckDB call, the DuckDB calls of other requests in flight
//            ([ms running, first 60 characters of the SQL])
//   lagMax   the longest event-loop delay (ms) seen while the probe was in the emulator
//   finish   ms after arrival when the answer was handed to the socket ('finish')
//   otherCalls  DuckDB calls other requests started while the probe was in the emulator
// The request's async context (AsyncLocalStorage) links the DuckDB calls to the probe.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const { AsyncLocalStorage } = require('node:async_hooks');
const { performance } = require('node:perf_hooks');

const file = process.env.BQEMU_PROBE_TRACE_FILE;
if (file) {
  const als = new AsyncLocalStorage();
  const now = () => performance.now();
  /** DuckDB calls in flight: call → [start, sql]. */
  const inflight = new Map();
  /** DuckDB and analyzer calls started so far, by any request. */
  let calls = 0;
  /** Probes in the emulator now (for lagMax). */
  const open = new Set();

  // Event-loop delay sampled every 2 ms: the largest overshoot while a probe is open is its lagMax.
  let last = now();
  setInterval(() => {
    const t = now();
    const lag = t - last - 2;
    last = t;
    for (const r of open) r.lagMax = Math.max(r.lagMax, lag);
  }, 2).unref();

  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (ev, req, res) {
    const id = ev === 'request' && req.headers['x-bqemu-probe'];
    if (!id) return emit.apply(this, arguments);
    const t0 = now();
    const rec = { id: Number(id), at: performance.timeOrigin + t0, t0, marks: [], lagMax: 0, calls0: calls };
    open.add(rec);
    req.on('end', () => rec.marks.push(['body', 0, +(now() - t0).toFixed(2)]));
    res.on('finish', () => {
      open.delete(rec);
      const out = { ...rec, finish: +(now() - t0).toFixed(2), lagMax: +rec.lagMax.toFixed(1), otherCalls: calls - rec.calls0 - rec.marks.length + 1 };
      // t0 (performance.now() at arrival) is kept: it places the probe on a CPU profile's timeline.
      delete out.calls0;
      fs.appendFileSync(file, JSON.stringify(out) + '\n');
    });
    return als.run(rec, () => emit.apply(this, arguments));
  };

  // The emulator's bundle (scripts/build-bundle.mjs) holds @duckdb/node-api but requires DuckDB's
  // native binding from node_modules: its async functions are wrapped as the bundle loads it.
  /** SQL of prepared statements and of the results they stream, for `busy`. */
  const sqlOf = new WeakMap();
  const timed = (name, fn) =>
    function (...args) {
      const rec = als.getStore();
      const t = now();
      const sql = typeof args[1] === 'string' ? args[1] : (args[0] && typeof args[0] === 'object' && sqlOf.get(args[0])) || name;
      let p;
      p = fn.apply(this, args);
      if (!p || typeof p.then !== 'function') return p;
      calls++;
      const key = {};
      inflight.set(key, [t, sql, rec]);
      if (rec && !rec.busy) rec.busy = [...inflight.values()].filter((v) => v[2] !== rec).map((v) => [+(t - v[0]).toFixed(1), String(v[1]).replace(/\s+/g, ' ').slice(0, 60)]);
      const done = (v) => {
        inflight.delete(key);
        if (v && typeof v === 'object') sqlOf.set(v, sql);
        if (rec) rec.marks.push([`duckdb:${name}`, +(t - rec.t0).toFixed(2), +(now() - rec.t0).toFixed(2)]);
      };
      p.then(done, () => done());
      return p;
    };
  const Module = require('node:module');
  const load = Module._load;
  let wrapped;
  Module._load = function (request, ...rest) {
    const m = load.call(this, request, ...rest);
    if (request !== '@duckdb/node-bindings') return m;
    if (!wrapped) {
      wrapped = {};
      for (const k of Object.getOwnPropertyNames(m)) wrapped[k] = typeof m[k] === 'function' ? timed(k, m[k]) : m[k];
    }
    return wrapped;
  };
}
