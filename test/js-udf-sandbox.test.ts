/**
 * JavaScript UDFs run in a sandbox off the main thread, through the real client.
 *
 * - Escapes are refused: the UDF sees only ECMAScript built-ins (BigQuery "User-defined functions",
 *   https://cloud.google.com/bigquery/docs/user-defined-functions), so
 *   the paths that reached the server's `process` through `node:vm` now meet `ReferenceError:
 *   process is not defined`.
 * - A runaway UDF fails its own query with BigQuery's resources-exceeded error while a second
 *   client keeps getting answers; a memory bomb fails alone with BigQuery's `UDF out of memory`.
 * - Normal UDFs keep the recorded answers (conformance/fixtures/routines_scripting/js_udf_*), also
 *   when a batch outlasts the main thread's short wait and the statement is re-run (SELECT, UPDATE,
 *   DELETE, MERGE).
 */
import fs from 'node:fs';
import path from 'node:path';
import { BigQuery } from '@google-cloud/bigquery';
import { PassThroughClient } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string, bq = t.bq) => (await bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];

/** Runs `f` with environment variables set (the emulator runs in this process). */
async function withEnv<T>(env: Record<string, string>, f: () => Promise<T>): Promise<T> {
  const old = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await f();
  } finally {
    for (const [k, v] of Object.entries(old)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

beforeAll(async () => {
  t = await startTestEmulator();
  await t.bq.createDataset('js');
  // Boots the worker pool, so timings below do not include its start.
  await q('CREATE TEMP FUNCTION warm(x INT64) RETURNS INT64 LANGUAGE js AS "return x;"; SELECT warm(1) AS w');
});
afterAll(async () => t?.emu.close());

describe('escape attempts are refused', () => {
  const failsWith = async (body: string, args: string, call: string, text: string) => {
    const e = await errorOf(q(`CREATE TEMP FUNCTION esc(${args}) RETURNS STRING LANGUAGE js AS r"""${body}""";\nSELECT esc(${call}) AS r`));
    expect(e.message).toBe(text);
    expect(e.errors?.[0]?.reason).toBe('invalidQuery');
  };

  it("the arguments' array: __in.constructor.constructor('return process')()", async () => {
    await failsWith(`return String(__in.constructor.constructor('return process')());`, 'x INT64', '1', 'ReferenceError: __in is not defined at esc(INT64) line 1, column 1');
    // An argument's own constructor chain stays inside the sandbox.
    await failsWith(`return String(x.constructor.constructor('return process')());`, 'x ARRAY<INT64>', '[1, 2]', 'ReferenceError: process is not defined at esc(ARRAY<INT64>) line 1, column 1');
  });

  it("this.constructor.constructor('return process')()", async () => {
    await failsWith(`return String(this.constructor.constructor('return process')());`, 'x INT64', '1', 'ReferenceError: process is not defined at esc(INT64) line 1, column 1');
  });

  it('globalThis.process, require, and the global object hold no host object', async () => {
    const rows = await q(`CREATE TEMP FUNCTION probe() RETURNS STRING LANGUAGE js AS r"""
      return [typeof globalThis.process, typeof require, typeof module, typeof fetch, typeof setTimeout, typeof WebAssembly].join(',');""";
      SELECT probe() AS r`);
    expect(rows).toEqual([{ r: 'undefined,undefined,undefined,undefined,undefined,undefined' }]);
    await failsWith(`return require('fs').readFileSync('/etc/passwd', 'utf8');`, '', '', 'ReferenceError: require is not defined at esc() line 1, column 1');
  });

  it("import('fs') loads nothing (a promise is not awaited; the module loader refuses)", async () => {
    const rows = await q(`CREATE TEMP FUNCTION imp() RETURNS STRING LANGUAGE js AS r"""
      const p = import('fs');
      return Object.prototype.toString.call(p);""";
      SELECT imp() AS r`);
    expect(rows).toEqual([{ r: '[object Promise]' }]);
  });
});

describe('limits: a runaway UDF fails alone and the emulator keeps serving', () => {
  it('while (true) {} fails with the time limit while a second client keeps answering SELECT 1', async () => {
    // A second client object (its own HTTP agent) against the same emulator.
    const other = new BigQuery({ projectId: t.projectId, apiEndpoint: t.emu.url, authClient: new PassThroughClient() as never });
    const latencies: number[] = [];
    let running = true;
    const prober = (async () => {
      while (running) {
        const t0 = performance.now();
        expect(await q('SELECT 1 AS one', other)).toEqual([{ one: 1 }]);
        latencies.push(performance.now() - t0);
      }
    })();
    // 2 s limit: the old main-thread `node:vm` limit blocked every client for all of it.
    const e = await withEnv({ BQEMU_JS_UDF_TIMEOUT_MS: '2000' }, () =>
      errorOf(q('CREATE TEMP FUNCTION f() RETURNS INT64 LANGUAGE js AS r"""while (true) {}""";\nSELECT f()')),
    );
    running = false;
    await prober;
    expect(e.message).toBe('Resources exceeded during query execution: JavaScript UDF f() timed out after 2000 ms.');
    expect(e.errors?.[0]?.reason).toBe('resourcesExceeded');
    latencies.sort((a, b) => a - b);
    const p50 = latencies[Math.floor(latencies.length / 2)];
    const max = latencies[latencies.length - 1];
    console.log(`SELECT 1 from a second client during a runaway UDF: n=${latencies.length} p50=${p50.toFixed(1)} ms max=${max.toFixed(1)} ms`);
    // Generous bounds for a loaded 2-core machine; a blocked event loop would hold one request ≥ 2 s.
    expect(latencies.length).toBeGreaterThan(5);
    expect(max).toBeLessThan(1000);
    expect(await q('SELECT 2 AS two')).toEqual([{ two: 2 }]);
  });

  it('jobs.cancel stops a job waiting on a runaway UDF well before its time limit', async () => {
    await withEnv({ BQEMU_JS_UDF_TIMEOUT_MS: '10000' }, async () => {
      const [job] = (await t.bq.createQueryJob({ query: 'CREATE TEMP FUNCTION f() RETURNS INT64 LANGUAGE js AS r"""while (true) {}""";\nSELECT f()' })) as unknown as [
        { cancel(): Promise<unknown>; getMetadata(): Promise<[Record<string, any>]> },
      ];
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      await job.cancel();
      let m: Record<string, any>;
      for (;;) {
        [m] = await job.getMetadata();
        if (m.status.state === 'DONE' || Date.now() - started > 12_000) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      // The 10 s limit would end it with the timeout error; cancelled, it stops within a second or two.
      expect(Date.now() - started).toBeLessThan(3000);
      expect(m.status.errorResult).toEqual({ reason: 'stopped', message: 'Job execution was cancelled: User requested cancellation' });
    });
  });

  for (const [kind, body] of [
    ['strings', 'const a = []; for (;;) a.push("x".repeat(1e6) + a.length);'],
    ['arrays', 'const a = []; for (;;) a.push(new Array(1e6).fill(a.length));'],
    ['array buffers', 'const a = []; for (;;) a.push(new ArrayBuffer(1e6));'],
  ]) {
    it(`a memory bomb (${kind}) fails with UDF out of memory; a normal UDF query run beside it answers`, async () => {
      // A long time limit: filling 128 MiB takes QuickJS 1–2 s, more on a loaded machine, and this
      // tests the memory limit, not a race with the time limit.
      const [e, rows] = await withEnv({ BQEMU_JS_UDF_TIMEOUT_MS: '30000' }, () => {
        const bomb = errorOf(q(`CREATE TEMP FUNCTION bomb() RETURNS INT64 LANGUAGE js AS r"""${body}""";\nSELECT bomb()`));
        const normal = q('CREATE TEMP FUNCTION js_addone(x INT64) RETURNS INT64 LANGUAGE js AS "return x + 1;";\nSELECT js_addone(41) AS n');
        return Promise.all([bomb, normal]);
      });
      expect(e.message).toBe('Resources exceeded during query execution: UDF out of memory.');
      expect(e.errors?.[0]?.reason).toBe('resourcesExceeded');
      expect(rows).toEqual([{ n: 411 }]);
    });
  }

  it('deep recursion fails with a thrown error, not a crash', async () => {
    const e = await errorOf(q('CREATE TEMP FUNCTION deep(x INT64) RETURNS INT64 LANGUAGE js AS r"""function r(n) { return r(n + 1) + 1; }\nreturn r(0);""";\nSELECT deep(1)'));
    expect(e.message).toBe('RangeError: Maximum call stack size exceeded at deep(INT64) line 1, column 1');
    expect(await q('SELECT 3 AS three')).toEqual([{ three: 3 }]);
  });
});

describe('normal UDFs keep the recorded answers', () => {
  const fixtures = path.join(import.meta.dirname, '../conformance/fixtures/routines_scripting');
  for (const name of ['js_udf_int_to_int', 'js_udf_array_to_array', 'js_udf_struct_to_struct', 'js_udf_uses_regexp', 'js_udf_uses_math', 'js_udf_in_group_by', 'js_udf_nested_in_sql_udf']) {
    it(name, async () => {
      const sql = fs.readFileSync(path.join(fixtures, name, 'query.sql'), 'utf8');
      const expected = JSON.parse(fs.readFileSync(path.join(fixtures, name, 'expected.json'), 'utf8')) as { rows: unknown[] };
      expect(await q(sql)).toEqual(expected.rows);
    });
  }

  it('js_udf_throws', async () => {
    const dir = path.join(fixtures, 'js_udf_throws');
    const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as { error: { reason: string; message_sample: string } };
    const e = await errorOf(q(fs.readFileSync(path.join(dir, 'query.sql'), 'utf8')));
    expect(e.message).toBe(expected.error.message_sample);
    expect(e.errors?.[0]?.reason).toBe(expected.error.reason);
  });
});

describe('a slow UDF (its batch outlasts the main thread wait) still answers every statement', () => {
  // 40 ms per call: a batch of 3 rows takes > 100 ms, so the statement is re-run once answered.
  const slow = 'CREATE TEMP FUNCTION slow(x INT64) RETURNS INT64 LANGUAGE js AS r"""const t = Date.now(); while (Date.now() - t < 40) {} return Number(x) * 2;""";\n';

  it('SELECT over several rows', async () => {
    expect(await q(`${slow}SELECT x, slow(x) AS y FROM UNNEST([1, 2, 3]) AS x ORDER BY x`)).toEqual([
      { x: 1, y: 2 },
      { x: 2, y: 4 },
      { x: 3, y: 6 },
    ]);
  });

  it('concurrent statements each get their own answers', async () => {
    const runs = [1, 2, 3, 4].map((k) => q(`${slow}SELECT SUM(slow(x * ${k})) AS s FROM UNNEST([1, 2, 3]) AS x`));
    expect(await Promise.all(runs)).toEqual([[{ s: 12 }], [{ s: 24 }], [{ s: 36 }], [{ s: 48 }]]);
  });

  it('CREATE TABLE AS SELECT and INSERT … SELECT', async () => {
    await q(`${slow}CREATE TABLE js.c AS SELECT x, slow(x) AS y FROM UNNEST([1, 2, 3]) AS x`);
    await q(`${slow}INSERT INTO js.c (x, y) SELECT x, slow(x) FROM UNNEST([4, 5]) AS x`);
    expect(await q('SELECT x, y FROM js.c ORDER BY x')).toEqual([1, 2, 3, 4, 5].map((x) => ({ x, y: 2 * x })));
  });

  it('UPDATE, DELETE and MERGE', async () => {
    await q('CREATE TABLE js.t (id INT64, v INT64)');
    await q('INSERT INTO js.t VALUES (1, 10), (2, 20), (3, 30)');
    await q(`${slow}UPDATE js.t SET v = slow(v) WHERE id >= 2`);
    expect(await q('SELECT id, v FROM js.t ORDER BY id')).toEqual([
      { id: 1, v: 10 },
      { id: 2, v: 40 },
      { id: 3, v: 60 },
    ]);
    await q(`${slow}DELETE FROM js.t WHERE slow(id) = 2`);
    expect(await q('SELECT id FROM js.t ORDER BY id')).toEqual([{ id: 2 }, { id: 3 }]);
    await q(`${slow}MERGE js.t AS d USING (SELECT 3 AS id UNION ALL SELECT 4) AS s ON d.id = s.id
      WHEN MATCHED THEN UPDATE SET v = slow(d.v) WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, slow(s.id))`);
    expect(await q('SELECT id, v FROM js.t ORDER BY id')).toEqual([
      { id: 2, v: 40 },
      { id: 3, v: 120 },
      { id: 4, v: 8 },
    ]);
  });

  it("an error thrown in a slow batch keeps the recorded error shape (js_udf_throws)", async () => {
    const e = await errorOf(
      q(`CREATE TEMP FUNCTION js_boom(x INT64) RETURNS INT64 LANGUAGE js AS r"""const t = Date.now(); while (Date.now() - t < 40) {} if (x == 3) throw new Error('boom from js udf'); return 1;""";
        SELECT js_boom(x) AS r FROM UNNEST([1, 2, 3]) AS x`),
    );
    expect(e.message).toBe('Error: boom from js udf at js_boom(INT64) line 1, column 1');
    expect(e.errors?.[0]).toMatchObject({ reason: 'invalidQuery', location: 'query' });
  });

  it('arguments that change on every run (RAND) still finish', async () => {
    const rows = await q(`${slow}SELECT slow(CAST(FLOOR(RAND() * 1000) AS INT64)) AS y FROM UNNEST([1, 2, 3]) AS x`);
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(Number(r.y) % 2).toBe(0);
  });
});
