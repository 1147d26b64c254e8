/**
 * NET.HOST, NET.PUBLIC_SUFFIX and NET.REG_DOMAIN through the real client. Expected values:
 * BigQuery's documentation examples (net_functions#nethost, #netpublic_suffix, #netreg_domain:
 * the shared table of inputs, and the private-domain note `NET.REG_DOMAIN("foo.us.com")` →
 * `us.com`) and the documented NULL cases (no host, adjacent dots in the middle, no public
 * suffix, only a public suffix). NET.IP_NET_MASK / NET.IP_TRUNC argument errors: the texts of the
 * ZetaSQL reference evaluator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const q = async (query: string) => (await t.bq.query({ query }))[0] as Record<string, unknown>[];

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('NET.HOST, NET.PUBLIC_SUFFIX, NET.REG_DOMAIN', () => {
  it('the documented table of inputs (docs example)', async () => {
    const rows = await q(`SELECT
        FORMAT("%T", input) AS input,
        FORMAT("%T", NET.HOST(input)) AS host,
        FORMAT("%T", NET.PUBLIC_SUFFIX(input)) AS suffix,
        FORMAT("%T", NET.REG_DOMAIN(input)) AS domain
      FROM (
        SELECT 1 AS o, "" AS input
        UNION ALL SELECT 2, "http://abc.xyz"
        UNION ALL SELECT 3, "//user:password@a.b:80/path?query"
        UNION ALL SELECT 4, "https://[::1]:80"
        UNION ALL SELECT 5, "http://例子.卷筒纸.中国"
        UNION ALL SELECT 6, "    www.Example.Co.UK    "
        UNION ALL SELECT 7, "mailto:?to=&subject=&body="
      ) ORDER BY o`);
    expect(rows.map((r) => [r.host, r.suffix, r.domain])).toEqual([
      ['NULL', 'NULL', 'NULL'],
      ['"abc.xyz"', '"xyz"', '"abc.xyz"'],
      ['"a.b"', 'NULL', 'NULL'],
      ['"[::1]"', 'NULL', 'NULL'],
      ['"例子.卷筒纸.中国"', '"中国"', '"卷筒纸.中国"'],
      ['"www.Example.Co.UK"', '"Co.UK"', '"Example.Co.UK"'],
      ['"mailto"', 'NULL', 'NULL'],
    ]);
  });

  it('private domains are not public suffixes; adjacent dots and bare suffixes give NULL (documented)', async () => {
    const [r] = await q(`SELECT
        NET.REG_DOMAIN("foo.us.com") AS private_domain,
        NET.PUBLIC_SUFFIX("foo.us.com") AS private_suffix,
        NET.PUBLIC_SUFFIX("http://www..google.com") AS adjacent_suffix,
        NET.REG_DOMAIN("http://www..google.com") AS adjacent_domain,
        NET.PUBLIC_SUFFIX("http://co.uk") AS bare_suffix,
        NET.REG_DOMAIN("http://co.uk") AS bare_domain,
        NET.PUBLIC_SUFFIX(CAST(NULL AS STRING)) AS null_input`);
    expect(r).toEqual({
      private_domain: 'us.com',
      private_suffix: 'com',
      adjacent_suffix: null,
      adjacent_domain: null,
      bare_suffix: 'co.uk',
      bare_domain: null,
      null_input: null,
    });
  });
});

describe('NET.IP_NET_MASK and NET.IP_TRUNC argument errors', () => {
  const err = async (query: string) => (await errorOf(t.bq.query({ query }))).message;
  it('name the argument at fault and its value', async () => {
    expect(await err(`SELECT NET.IP_NET_MASK(1, 33) AS m`)).toBe('The first argument of NET.IP_NET_MASK() must be either 4 (for IPv4) or 16 (for IPv6); got 1');
    expect(await err(`SELECT NET.IP_NET_MASK(16, -1) AS m`)).toBe('The second argument of NET.IP_NET_MASK() must be between 0 and the first argument * 8; got -1');
    expect(await err(`SELECT NET.IP_TRUNC(b'123', 33) AS m`)).toBe('The first argument of NET.IP_TRUNC() must have length 4 (for IPv4) or 16 (for IPv6); got 3');
    expect(await err(`SELECT NET.IP_TRUNC(b'1234', -1) AS m`)).toBe('The second argument of NET.IP_TRUNC() must be between 0 and 8 * LENGTH(first argument); got -1');
    expect((await t.bq.query({ query: `SELECT SAFE.NET.IP_TRUNC(b'1234', -1) AS m` }))[0]).toEqual([{ m: null }]);
  });
});
