/**
 * Host names of URLs and their public suffixes (net_functions#nethost, #netpublic_suffix,
 * #netreg_domain), following ZetaSQL's implementation (zetasql/public/functions/net.cc `Host`,
 * `DomainSuffix`; zetasql/base/net/public_suffix_oss.cc) and BigQuery's documentation:
 *
 * - the host is the text after the scheme's `//` (a scheme without `//`, like `mailto:`, is not
 *   one) and the last `@`, before `/ ? # \`, without the port (IPv6 brackets kept), leading dots
 *   dropped and trailing dots but one dropped; the original case is kept;
 * - the public suffix is looked up on the host normalised to lower-case Punycode (IDNA UTS #46,
 *   non-transitional); a host that does not normalise, has adjacent dots in the middle or matches
 *   no ICANN rule has none (NULL); private rules are ignored (a private rule ends the lookup);
 * - the answer is the same number of labels cut from the original host.
 *
 * The rules are the Public Suffix List shipped by the `psl` package (ICANN section first, then the
 * private section, whose rules all contain a dot: the last dot-free rule ends the ICANN section).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { domainToASCII } from 'node:url';

const NET_LOC_END = new Set(['#', '/', '?', '\\']);
const SLASH = new Set(['/', '\\']);

/** NET.HOST: the host of a URL (original case), or null when there is none. */
export function netHost(url: string): string | null {
  if (!url.length) return null;
  const s = url.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
  let begin = 0;
  let end = s.length;
  let colonTarget = ':';
  if (s.length > 1 && SLASH.has(s[0]) && SLASH.has(s[1])) {
    begin = 2;
    colonTarget = '/';
  }
  for (let p = begin; p < end; p++) {
    const c = s[p];
    if (NET_LOC_END.has(c)) {
      end = p;
      break;
    }
    if (c === colonTarget) {
      if (p + 2 < end && SLASH.has(s[p + 1]) && SLASH.has(s[p + 2])) {
        p += 2;
        begin = p + 1;
      }
      colonTarget = '/';
    } else if (c === '@') begin = p + 1;
  }
  // Truncate at the first ':' after the brackets of an IPv6 address.
  let p = begin;
  if (p < end && s[p] === '[') {
    while (++p < end) {
      if (s[p] === '[' || s[p] === ']') {
        ++p;
        break;
      }
    }
  }
  const colon = s.indexOf(':', p);
  if (colon >= 0 && colon < end) end = colon;
  while (begin < end && s[begin] === '.') begin++;
  if (end > begin && s[end - 1] === '.') {
    let q = end - 1;
    do q--;
    while (s[q] === '.');
    end = q + 2;
  }
  return end > begin ? s.slice(begin, end) : null;
}

// ---------- the rules ----------

const NORMAL = 1;
const WILDCARD = 2;
const EXCEPTION = 4;
const PRIVATE = 8;

interface Node {
  rules: number;
  map: Map<string, Node>;
}

/** IDNA ToASCII of a whole name (null when it does not convert, as ICU's errors make it). */
function toAscii(name: string): string | null {
  const ascii = domainToASCII(name);
  if (!ascii) return null;
  const labels = ascii.split('.');
  if (labels.length > 1 && labels[labels.length - 1] === '') labels.pop();
  if (ascii.length > (ascii.endsWith('.') ? 254 : 253)) return null;
  for (const l of labels) {
    if (!l.length || l.length > 63 || l.startsWith('-') || l.endsWith('-')) return null;
    if (l.slice(2, 4) === '--' && !l.startsWith('xn--')) return null;
  }
  return ascii;
}

/** The list's rules in file order (`psl/data/rules.js`, an `export default [...]` of strings). */
function loadRules(): string[] {
  const file = path.join(path.dirname(createRequire(import.meta.url).resolve('psl')), '..', 'data', 'rules.js');
  const text = fs.readFileSync(file, 'utf8');
  return JSON.parse(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1).replace(/,\s*]$/, ']')) as string[];
}

let root: Node | undefined;

function trie(): Node {
  if (root) return root;
  const RULES = loadRules();
  const top: Node = { rules: NORMAL | WILDCARD, map: new Map() };
  let lastIcann = -1;
  RULES.forEach((r, i) => {
    if (!r.includes('.')) lastIcann = i;
  });
  const add = (rule: string, priv: boolean): void => {
    let flags = NORMAL;
    let text = rule;
    if (text.startsWith('!')) [flags, text] = [EXCEPTION, text.slice(1)];
    const norm = /^[\x21-\x7e]*$/.test(text) ? text.toLowerCase() : toAscii(text);
    if (!norm) return;
    const labels = norm.replace(/\.$/, '').split('.').reverse();
    if (labels[labels.length - 1] === '*') labels.pop(), (flags = WILDCARD);
    if (priv) flags |= PRIVATE;
    let node = top;
    for (const l of labels) {
      let next = node.map.get(l);
      if (!next) node.map.set(l, (next = { rules: 0, map: new Map() }));
      node = next;
    }
    if (!node.rules) node.rules = flags;
    else {
      if ((node.rules & EXCEPTION) !== (flags & EXCEPTION)) node.rules &= ~EXCEPTION;
      if ((node.rules & PRIVATE) !== (flags & PRIVATE)) node.rules &= ~PRIVATE;
      node.rules |= flags & (NORMAL | WILDCARD);
    }
  };
  // ICANN rules first, then private ones (PublicSuffixRulesBuilder::Build).
  RULES.forEach((r, i) => i <= lastIcann && add(r, false));
  RULES.forEach((r, i) => i > lastIcann && add(r, true));
  return (root = top);
}

interface Match {
  match: boolean;
  /** Start offset of the label in the name. */
  at: number;
}

/** PublicSuffixRules::GetMatchingRules, with unknown top-level domains not matched. */
function matchingRules(name: string): Match[] {
  const matches: Match[] = [{ match: true, at: name.length }];
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  let node = trie();
  let dot = n.length;
  const nextLabel = (): { label: string; at: number } => {
    const start = n.lastIndexOf('.', dot - 1) + 1;
    const label = n.slice(start, dot);
    dot = start - 1;
    return { label, at: start };
  };
  while (dot >= 0) {
    let { label, at } = nextLabel();
    if (!label) return matches;
    const prev = node;
    const found = node.map.get(label);
    if (!found) {
      if (!(prev.rules & WILDCARD)) return matches.push({ match: false, at }), matches;
      if (prev === trie()) return matches;
      matches.push({ match: true, at });
      if (dot < 0) return matches;
      ({ label, at } = nextLabel());
      if (label) matches.push({ match: false, at });
      return matches;
    }
    node = found;
    if (node.rules & PRIVATE) return matches.push({ match: false, at }), matches;
    if (node.rules & EXCEPTION) {
      matches[matches.length - 1].match = !!(prev.rules & WILDCARD);
      return matches.push({ match: false, at }), matches;
    }
    matches.push({ match: !!(node.rules & NORMAL) || !!(prev.rules & WILDCARD), at });
  }
  return matches;
}

function suffixOf(name: string, topPrivate: boolean): string {
  if (!name) return '';
  const m = matchingRules(name);
  let i = m.length - 1;
  let at = name.length;
  if (topPrivate) {
    let lastNoMatch = -1;
    while (!m[i].match) lastNoMatch = i--;
    if (lastNoMatch >= 0) at = m[lastNoMatch].at;
  } else {
    while (!m[i].match) i--;
    at = m[i].at;
  }
  return name.slice(at);
}

/**
 * NET.PUBLIC_SUFFIX (`topPrivate` false) or NET.REG_DOMAIN (true) of a URL: the labels of the
 * original host that the normalised host's suffix spans, or null.
 */
export function domainSuffix(url: string, topPrivate: boolean): string | null {
  const host = netHost(url);
  if (host === null) return null;
  // Adjacent dots in the middle: no suffix (documented).
  if (host.replace(/\.$/, '').includes('..')) return null;
  let normalized = host;
  if (/[A-Z\x7f-\uffff]/.test(host)) {
    const a = toAscii(host);
    if (a === null) return null;
    normalized = a;
  }
  const suffix = suffixOf(normalized, topPrivate);
  if (!suffix) return null;
  let dots = [...suffix].filter((c) => c === '.').length;
  let p = host.length;
  while (--p >= 0) if (host[p] === '.' && --dots < 0) break;
  const out = host.slice(p + 1);
  return out || null;
}
