/**
 * NET functions and miscellaneous builtins. Expected values: BigQuery docs examples
 * (net_functions: IP_FROM_STRING, IP_TO_STRING, IP_NET_MASK, IP_TRUNC, IPV4_FROM_INT64,
 * IPV4_TO_INT64; conditional ZEROIFNULL/NULLIFZERO; operators LIKE ANY/ALL).
 */
import { describe, expect, it } from 'vitest';
import { ev, evText, lit, T } from './testkit.js';

describe('NET functions', () => {
  it('IP text ⇄ bytes (docs net-ip-from-string-1, net-ip-to-string-1, net-safe-ip-from-string-1)', async () => {
    const fromS = (s: string) => evText('net.safe_ip_from_string', T.bytes, [lit.str(s)]);
    expect(await fromS('48.49.50.51')).toBe('30313233');
    expect(await fromS('::1')).toBe('00000000000000000000000000000001');
    expect(await fromS('3031:3233:3435:3637:3839:4041:4243:4445')).toBe('30313233343536373839404142434445');
    expect(await fromS('::ffff:192.0.2.128')).toBe('00000000000000000000ffffc0000280');
    expect(await fromS('48.49.50.51/32')).toBe(null);
    expect(await fromS('48.49.50')).toBe(null);
    expect(await fromS('::wxyz')).toBe(null);
    const toS = (h: string) => ev('net.ip_to_string', T.str, [lit.hex(h)]);
    expect(await toS('30313233')).toBe('48.49.50.51');
    expect(await toS('00000000000000000000000000000001')).toBe('::1');
    expect(await toS('30313233343536373839404142434445')).toBe('3031:3233:3435:3637:3839:4041:4243:4445');
    expect(await toS('00000000000000000000ffffc0000280')).toBe('::ffff:192.0.2.128');
  });
  it('masks and IPv4 integers (docs net-ip-net-mask-1, net-ip-trunc-1, net-ipv4-*)', async () => {
    const mask = (n: number, p: number) => evText('net.ip_net_mask', T.bytes, [lit.int(n), lit.int(p)]);
    expect(await mask(4, 0)).toBe('00000000');
    expect(await mask(4, 20)).toBe('fffff000');
    expect(await mask(16, 1)).toBe('80000000000000000000000000000000');
    const trunc = (h: string, p: number) => evText('net.ip_trunc', T.bytes, [lit.hex(h), lit.int(p)]);
    expect(await trunc('aabbccdd', 11)).toBe('aaa00000');
    expect(await trunc('aabbccdd', 24)).toBe('aabbcc00');
    expect(await evText('net.ipv4_from_int64', T.bytes, [lit.int(0xabcdef)])).toBe('00abcdef');
    expect(await evText('net.ipv4_from_int64', T.bytes, [lit.int(-1)])).toBe('ffffffff');
    expect(await evText('net.ipv4_from_int64', T.bytes, [lit.int(-2)])).toBe('fffffffe');
    expect(await ev('net.ipv4_to_int64', T.int, [lit.hex('00abcdef')])).toBe(0xabcdef);
    expect(await ev('net.ipv4_to_int64', T.int, [lit.hex('ffffffff')])).toBe(4294967295);
    // NET.HOST keeps the host's case (docs net_functions#nethost: "    www.Example.Co.UK    " → "www.Example.Co.UK").
    expect(await ev('net.host', T.str, [lit.str('https://www.Example.com:8080/a?b')])).toBe('www.Example.com');
  });
});

describe('misc', () => {
  it('ZEROIFNULL, NULLIFZERO, TYPEOF, LIKE ANY/ALL, ARRAY_OFFSETS', async () => {
    expect(await ev('zeroifnull', T.int, [lit.null(T.int)])).toBe(0);
    expect(await ev('nullifzero', T.int, [lit.int(0)])).toBe(null);
    expect(await ev('typeof', T.str, [lit.ints(1)])).toBe('ARRAY<INT64>');
    expect(await ev('$like_any', T.bool, [lit.str('apple'), lit.str('%x%'), lit.str('a%')])).toBe(true);
    expect(await ev('$like_all', T.bool, [lit.str('apple'), lit.str('%x%'), lit.str('a%')])).toBe(false);
    expect(await ev('$like_any_array', T.bool, [lit.str('apple'), lit.strs('%x%', 'a%')])).toBe(true);
    expect(await ev('array_offsets', T.arr(T.int), [lit.ints(10, 20, 10), lit.int(10)])).toEqual([0, 2]);
  });
});
