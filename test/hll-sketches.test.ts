/**
 * HLL_COUNT.* through the real client: the sketches are BigQuery's bytes
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/hll_functions).
 *
 * Expected values: BigQuery's recorded answers (conformance fixtures agg_hll_count_merge_partial_basic,
 * the hex of MERGE_PARTIAL over INIT([1,2,3]) and INIT([4,5,6]), and agg_hll_count_merge_basic,
 * MERGE of the same = 6); the documented precision range 10..24 and its confidence intervals
 * (±0.57% at 95% for the default 15, ±3.25% for 10); the zetasketch layout the recorded bytes
 * show (field 3 normal precision, field 4 sparse precision = p + 5, sparse data while small); the
 * HLL_COUNT.INIT and HLL_COUNT.MERGE examples of the HyperLogLog++ functions page, whose STRING
 * sketches are printed byte for byte (conformance/docs-examples/visible.jsonl).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query, wrapIntegers: false }))[0] as Record<string, unknown>[];
const fixture = (id: string) => ({
  query: fs.readFileSync(`conformance/fixtures/standard_functions/${id}/query.sql`, 'utf8'),
  rows: JSON.parse(fs.readFileSync(`conformance/fixtures/standard_functions/${id}/expected.json`, 'utf8')).rows as Record<string, unknown>[],
});
const RECORDED = fixture('agg_hll_count_merge_partial_basic');

interface DocsCase { id: string; query: string; rows: string[][] }
const docsCase = (id: string): DocsCase =>
  fs.readFileSync('conformance/docs-examples/visible.jsonl', 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as DocsCase).find((c) => c.id === id)!;

/** The docs' display of a BYTES value (`"\\010p…"`: C escapes, octal bytes) → hex. */
function displayedBytesHex(shown: string): string {
  const body = shown.slice(1, -1);
  const out: number[] = [];
  const named: Record<string, number> = { n: 10, r: 13, t: 9, '\\': 92, '"': 34, "'": 39 };
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') out.push(body.charCodeAt(i));
    else if (/[0-7]/.test(body[i + 1]!)) {
      out.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else out.push(named[body[++i]!]!);
  }
  return Buffer.from(out).toString('hex');
}
const RECORDED_HEX = RECORDED.rows[0]!.merged as string;

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('HLL_COUNT sketches in BigQuery\'s format', () => {
  it('MERGE_PARTIAL over INIT sketches gives BigQuery\'s recorded bytes', async () => {
    expect(await q(RECORDED.query)).toEqual(RECORDED.rows);
  });

  it('MERGE gives BigQuery\'s recorded count', async () => {
    const f = fixture('agg_hll_count_merge_basic');
    expect(await q(f.query)).toEqual(f.rows);
  });

  it('a sketch made by BigQuery is read back by EXTRACT, MERGE and MERGE_PARTIAL', async () => {
    const bq = `FROM_HEX('${RECORDED_HEX}')`;
    expect(await q(`SELECT HLL_COUNT.EXTRACT(${bq}) AS n`)).toEqual([{ n: 6 }]);
    // Merging BigQuery's sketch with itself adds nothing but the value counts.
    const [r] = await q(`SELECT HLL_COUNT.MERGE(s) AS n, TO_HEX(HLL_COUNT.MERGE_PARTIAL(s)) AS h FROM UNNEST([${bq}, ${bq}]) AS s`);
    expect(r!.n).toBe(6);
    // num_values (field 2) doubles from 6 to 12; the HLL++ state is unchanged.
    expect(r!.h).toBe(RECORDED_HEX.replace(/^08701006/, '0870100c'));
    // Values already in BigQuery's sketch change nothing else; NULL sketches are skipped.
    const [u] = await q(`SELECT TO_HEX(HLL_COUNT.MERGE_PARTIAL(s)) AS h FROM (SELECT ${bq} AS s UNION ALL SELECT HLL_COUNT.INIT(n) FROM UNNEST([1, 2, 3]) AS n UNION ALL SELECT NULL)`);
    expect(u!.h).toBe(RECORDED_HEX.replace(/^08701006/, '08701009'));
  });

  it('the HyperLogLog++ page\'s INIT example: STRING sketches at precision 10, byte for byte', async () => {
    const c = docsCase('hll_functions/hll-count-init-1');
    const got = (await q(c.query)).map((r) => [r.country, Buffer.from(r.hll_sketch as Buffer).toString('hex')]);
    const want = c.rows.map(([country, shown]) => [country, displayedBytesHex(shown!)]);
    expect(got.sort()).toEqual(want.sort());
  });

  it('the HyperLogLog++ page\'s MERGE example', async () => {
    const c = docsCase('hll_functions/hll-count-merge-1');
    expect(await q(c.query)).toEqual([{ distinct_customers_with_open_invoice: Number(c.rows[0]![0]) }]);
  });

  it('INIT writes the precision argument: normal precision p, sparse precision p + 5', async () => {
    const [r] = await q('SELECT TO_HEX(HLL_COUNT.INIT(n, 10)) AS h10, TO_HEX(HLL_COUNT.INIT(n, 18)) AS h18 FROM UNNEST([1, 2, 3]) AS n');
    expect(r!.h10).toMatch(/^08701003180220088207[0-9a-f]{2}1003180a200f32/);
    expect(r!.h18).toMatch(/^08701003180220088207[0-9a-f]{2}10031812201732/);
  });

  it('NULL inputs: INIT of no value is NULL, EXTRACT of NULL and MERGE of nothing are 0', async () => {
    expect(await q('SELECT HLL_COUNT.INIT(n) AS s FROM UNNEST([CAST(NULL AS INT64)]) AS n')).toEqual([{ s: null }]);
    expect(await q('SELECT HLL_COUNT.EXTRACT(CAST(NULL AS BYTES)) AS n')).toEqual([{ n: 0 }]);
    expect(await q('SELECT HLL_COUNT.MERGE(s) AS n, HLL_COUNT.MERGE_PARTIAL(s) AS p FROM UNNEST([CAST(NULL AS BYTES)]) AS s')).toEqual([{ n: 0, p: null }]);
  });

  it('large inputs switch to the normal representation and estimate within the documented error', async () => {
    const [r] = await q(`SELECT HLL_COUNT.EXTRACT(s) AS n, BYTE_LENGTH(s) AS len FROM (SELECT HLL_COUNT.INIT(x) AS s FROM UNNEST(GENERATE_ARRAY(1, 200000)) AS x)`);
    expect(Math.abs((r!.n as number) - 200000) / 200000).toBeLessThan(0.0057 * 2);
    // 2^15 one-byte registers plus the proto framing.
    expect(r!.len as number).toBeGreaterThan(32768);
    const [s] = await q(`SELECT HLL_COUNT.MERGE(s) AS n FROM (SELECT HLL_COUNT.INIT(CAST(x AS STRING), 10) AS s FROM UNNEST(GENERATE_ARRAY(1, 50000)) AS x GROUP BY MOD(x, 7))`);
    expect(Math.abs((s!.n as number) - 50000) / 50000).toBeLessThan(0.065);
  });

  it('STRING and BYTES of the same bytes hash alike; groups of sketches merge per group', async () => {
    const [r] = await q("SELECT TO_HEX(HLL_COUNT.INIT(s)) = TO_HEX(HLL_COUNT.INIT(CAST(s AS BYTES))) AS same, HLL_COUNT.EXTRACT(HLL_COUNT.INIT(s)) AS n FROM UNNEST(['a', 'b', 'a', 'Zürich']) AS s");
    expect(r).toEqual({ same: true, n: 3 });
  });

  it('client mistakes are 400s: a precision outside 10..24, bytes that are not a sketch, sketches of two types', async () => {
    const e1 = await errorOf(q('SELECT HLL_COUNT.INIT(n, 9) FROM UNNEST([1]) AS n'));
    expect(e1.code).toBe(400);
    expect(e1.message).toMatch(/Argument 2 to HLL_COUNT.INIT must be between 10 and 24/);
    const e2 = await errorOf(q("SELECT HLL_COUNT.EXTRACT(b'not a sketch') AS n"));
    expect(e2.code).toBe(400);
    expect(e2.errors?.[0]?.reason).toBe('invalidQuery');
    expect(e2.message).toMatch(/HLL_COUNT.EXTRACT/);
    // "Each sketch must be initialized on the same type" (the HyperLogLog++ page, HLL_COUNT.MERGE).
    const e3 = await errorOf(q("SELECT HLL_COUNT.MERGE(s) FROM (SELECT HLL_COUNT.INIT(n) AS s FROM UNNEST([1]) AS n UNION ALL SELECT HLL_COUNT.INIT(c) FROM UNNEST(['a']) AS c)"));
    expect(e3.code).toBe(400);
    expect(e3.message).toMatch(/HLL_COUNT.MERGE/);
  });
});
