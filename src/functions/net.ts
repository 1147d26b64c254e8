/**
 * NET functions (GoogleSQL "Net functions"): IP address conversions as UDFs over BYTES.
 * IPv4 addresses are 4 bytes, IPv6 16 bytes; IPv6 text is RFC 5952 (longest zero run as `::`,
 * IPv4-mapped addresses as `::ffff:a.b.c.d`). NET.HOST, NET.PUBLIC_SUFFIX and NET.REG_DOMAIN
 * parse URLs as ZetaSQL does and look suffixes up in the Public Suffix List (net-domain.ts).
 */
import { domainSuffix, netHost } from './net-domain.js';
import { defineUdf } from './builtin-udfs.js';
import type { FnCall, FnTable } from './registry.js';
import { fail } from './util.js';

function parseV4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

/** IP text → bytes (null when invalid). */
export function ipFromString(s: string): Uint8Array | null {
  const v4 = parseV4(s);
  if (v4) return new Uint8Array(v4);
  if (!/^[0-9a-fA-F:.]+$/.test(s) || s.split('::').length > 2) return null;
  let tail: number[] = [];
  let text = s;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v = parseV4(s.slice(lastColon + 1));
    if (!v) return null;
    tail = [(v[0] << 8) | v[1], (v[2] << 8) | v[3]];
    text = s[lastColon - 1] === ':' ? s.slice(0, lastColon + 1) : s.slice(0, lastColon);
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = groups(head);
  const r = rest === undefined ? [] : groups(rest);
  if (![...h, ...r].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const total = h.length + r.length + tail.length;
  if (rest === undefined ? total !== 8 : total > 7) return null;
  const words = [...h.map((g) => parseInt(g, 16)), ...Array(8 - total).fill(0), ...r.map((g) => parseInt(g, 16)), ...tail];
  return new Uint8Array(words.flatMap((w) => [w >> 8, w & 255]));
}

/** Bytes → IP text (null for lengths other than 4 and 16). */
export function ipToString(b: Uint8Array): string | null {
  if (b.length === 4) return [...b].join('.');
  if (b.length !== 16) return null;
  const w = Array.from({ length: 8 }, (_v, i) => (b[2 * i] << 8) | b[2 * i + 1]);
  if (w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff) return `::ffff:${[...b.slice(12)].join('.')}`;
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && w[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = w.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

defineUdf('bq_ip_from_string', ['VARCHAR'], 'BLOB', (s) => ipFromString(s));
defineUdf('bq_ip_to_string', ['BLOB'], 'VARCHAR', (b) => ipToString(b));
defineUdf('bq_ip_net_mask', ['BIGINT', 'BIGINT'], 'BLOB', (len, prefix) => {
  const n = Number(len);
  const p = Number(prefix);
  if ((n !== 4 && n !== 16) || p < 0 || p > n * 8) return null;
  return new Uint8Array(Array.from({ length: n }, (_v, i) => (p >= (i + 1) * 8 ? 255 : p <= i * 8 ? 0 : (0xff << (8 - (p - i * 8))) & 255)));
});
defineUdf('bq_ip_trunc', ['BLOB', 'BIGINT'], 'BLOB', (b, prefix) => {
  const p = Number(prefix);
  if ((b.length !== 4 && b.length !== 16) || p < 0 || p > b.length * 8) return null;
  return b.map((x, i) => (p >= (i + 1) * 8 ? x : p <= i * 8 ? 0 : x & ((0xff << (8 - (p - i * 8))) & 255)));
});
defineUdf('bq_net_host', ['VARCHAR'], 'VARCHAR', (url) => netHost(url));
defineUdf('bq_net_public_suffix', ['VARCHAR'], 'VARCHAR', (url) => domainSuffix(url, false));
defineUdf('bq_net_reg_domain', ['VARCHAR'], 'VARCHAR', (url) => domainSuffix(url, true));

const invalid = (fn: string) => (c: FnCall, what: string) => fail(c, `'${fn}() encountered an ${what}: ' || ${c.args[0]}`);

/** The net_functions page. */
export const NET_FUNCTIONS: FnTable = {
  'net.ip_from_string': (c) => `CASE WHEN ${c.args[0]} IS NOT NULL AND bq_ip_from_string(${c.args[0]}) IS NULL THEN ${invalid('NET.IP_FROM_STRING')(c, 'unparseable IP-address')} ELSE bq_ip_from_string(${c.args[0]}) END`,
  'net.safe_ip_from_string': (c) => `bq_ip_from_string(${c.args[0]})`,
  'net.ip_to_string': (c) => `CASE WHEN ${c.args[0]} IS NOT NULL AND bq_ip_to_string(${c.args[0]}) IS NULL THEN ${fail(c, `'NET.IP_TO_STRING() encountered a non-IPv4/IPv6 address. Expected 4 or 16 bytes but got ' || CAST(octet_length(${c.args[0]}) AS VARCHAR)`)} ELSE bq_ip_to_string(${c.args[0]}) END`,
  'net.ip_net_mask': (c) => {
    const [n, prefix] = c.args;
    const firstBad = fail(c, `'The first argument of NET.IP_NET_MASK() must be either 4 (for IPv4) or 16 (for IPv6); got ' || CAST(${n} AS VARCHAR)`);
    const secondBad = fail(c, `'The second argument of NET.IP_NET_MASK() must be between 0 and the first argument * 8; got ' || CAST(${prefix} AS VARCHAR)`);
    return `CASE WHEN ${n} IS NOT NULL AND ${prefix} IS NOT NULL AND bq_ip_net_mask(${n}, ${prefix}) IS NULL THEN (CASE WHEN ${n} NOT IN (4, 16) THEN ${firstBad} ELSE ${secondBad} END) ELSE bq_ip_net_mask(${n}, ${prefix}) END`;
  },
  'net.ip_trunc': (c) => {
    const [ip, prefix] = c.args;
    const firstBad = fail(c, `'The first argument of NET.IP_TRUNC() must have length 4 (for IPv4) or 16 (for IPv6); got ' || CAST(octet_length(${ip}) AS VARCHAR)`);
    const secondBad = fail(c, `'The second argument of NET.IP_TRUNC() must be between 0 and 8 * LENGTH(first argument); got ' || CAST(${prefix} AS VARCHAR)`);
    return `CASE WHEN ${ip} IS NOT NULL AND ${prefix} IS NOT NULL AND bq_ip_trunc(${ip}, ${prefix}) IS NULL THEN (CASE WHEN octet_length(${ip}) NOT IN (4, 16) THEN ${firstBad} ELSE ${secondBad} END) ELSE bq_ip_trunc(${ip}, ${prefix}) END`;
  },
  'net.ipv4_from_int64': (c) => {
    const n = c.args[0];
    const err = fail(c, `'NET.IPV4_FROM_INT64() encountered a value that does not fit in 32 bits: ' || CAST(${n} AS VARCHAR)`);
    return `CASE WHEN ${n} < -2147483648 OR ${n} > 4294967295 THEN ${err} ELSE unhex(printf('%08x', CASE WHEN ${n} < 0 THEN ${n} + 4294967296 ELSE ${n} END)) END`;
  },
  'net.ipv4_to_int64': (c) => {
    const b = c.args[0];
    const err = fail(c, `'NET.IPV4_TO_INT64() encountered a non-IPv4 address. Expected 4 bytes but got ' || CAST(octet_length(${b}) AS VARCHAR)`);
    return `CASE WHEN octet_length(${b}) <> 4 THEN ${err} ELSE CAST(('0x' || hex(${b})) AS BIGINT) END`;
  },
  'net.host': (c) => `bq_net_host(${c.args[0]})`,
  'net.public_suffix': (c) => `bq_net_public_suffix(${c.args[0]})`,
  'net.reg_domain': (c) => `bq_net_reg_domain(${c.args[0]})`,
};
