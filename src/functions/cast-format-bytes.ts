/**
 * CAST(BYTES AS STRING FORMAT f) and CAST(STRING AS BYTES FORMAT f) for the BYTES formats of
 * https://cloud.google.com/bigquery/docs/reference/standard-sql/format-elements#format_string_as_bytes
 * (HEX, BASE2, BASE8, BASE64, BASE64M, ASCII, UTF-8 / UTF8, case-insensitive), with the texts of
 * ZetaSQL's cast functions, which BigQuery runs (checked against the reference evaluator by the
 * differential suite, test/differential/families-text.ts):
 * - BASE2 writes 8 digits a byte; BASE8 writes 8 digits per 3 bytes, a leading group of 1 or 2
 *   bytes as 3 or 6 digits. Reading, digits are grouped from the right (8 per 1 byte in BASE2, 8
 *   per 3 bytes in BASE8), a shorter leading group making 1 byte (BASE2) or one byte per 3 digits
 *   begun (BASE8, keeping the low bits of a group too large); HEX reads an odd number of digits as
 *   if led by 0.
 * - errors: `Failed to decode invalid base2 string due to character 'Y' at offset 0`,
 *   `Failed to decode invalid base8 string`, `Failed to decode invalid hexadecimal string due to
 *   character at offset 0: zz`, `Failed to decode invalid ASCII string`, `A string is not valid
 *   UTF-8.`, `Invalid format 'BASE32'`.
 */
import { decodeBase64 } from './string-encoding.js';

const normalised = (fmt: string) => fmt.trim().toUpperCase().replace(/^UTF8$/, 'UTF-8');

function invalidFormat(fmt: string): Error {
  return new Error(`Invalid format '${fmt}'`);
}

/** Bytes → BASE8 text (see the module comment). */
function base8(buf: Uint8Array): string {
  const lead = buf.length % 3;
  let out = '';
  if (lead) {
    let v = 0;
    for (let i = 0; i < lead; i++) v = v * 256 + buf[i]!;
    out += v.toString(8).padStart(lead * 3, '0');
  }
  for (let i = lead; i < buf.length; i += 3) out += ((buf[i]! << 16) | (buf[i + 1]! << 8) | buf[i + 2]!).toString(8).padStart(8, '0');
  return out;
}

/**
 * BASE8 text → bytes, or null when a digit is not octal. A leading group too large for its bytes
 * keeps its low bits, as ZetaSQL (the reference evaluator: '777' → 0xff, '616263' → 0x1cb3).
 */
function fromBase8(s: string): Uint8Array | null {
  if (!/^[0-7]*$/.test(s)) return null;
  const leadDigits = s.length % 8;
  const out: number[] = [];
  const push = (digits: string, bytes: number) => {
    const v = parseInt(digits, 8);
    for (let i = bytes - 1; i >= 0; i--) out.push(Math.floor(v / 2 ** (8 * i)) % 256);
  };
  if (leadDigits) push(s.slice(0, leadDigits), Math.ceil(leadDigits / 3));
  for (let i = leadDigits; i < s.length; i += 8) push(s.slice(i, i + 8), 3);
  return Uint8Array.from(out);
}

/** BASE2 text → bytes; throws ZetaSQL's error naming the first non-binary character. */
function fromBase2(s: string): Uint8Array {
  const bad = /[^01]/.exec(s);
  if (bad) throw new Error(`Failed to decode invalid base2 string due to character '${bad[0]}' at offset ${bad.index}`);
  const lead = s.length % 8;
  const out: number[] = [];
  if (lead) out.push(parseInt(s.slice(0, lead), 2));
  for (let i = lead; i < s.length; i += 8) out.push(parseInt(s.slice(i, i + 8), 2));
  return Uint8Array.from(out);
}

/**
 * CAST(bytes AS STRING FORMAT fmt).
 * @throws Error with ZetaSQL's text for an unknown format, non-ASCII bytes under ASCII, invalid UTF-8.
 */
export function formatBytes(fmt: string, b: Uint8Array): string {
  const buf = Buffer.from(b);
  switch (normalised(fmt)) {
    case 'HEX':
      return buf.toString('hex');
    case 'BASE2':
      return [...buf].map((x) => x.toString(2).padStart(8, '0')).join('');
    case 'BASE8':
      return base8(buf);
    case 'BASE64':
      return buf.toString('base64');
    case 'BASE64M':
      return (buf.toString('base64').match(/.{1,76}/g) ?? ['']).join('\n');
    case 'ASCII':
      if (buf.some((x) => x > 127)) throw new Error('Failed to decode invalid ASCII string');
      return buf.toString('latin1');
    case 'UTF-8':
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(buf);
      } catch {
        throw new Error('A string is not valid UTF-8.');
      }
    default:
      throw invalidFormat(fmt);
  }
}

/**
 * CAST(text AS BYTES FORMAT fmt).
 * @throws Error with ZetaSQL's text for an unknown format or text that is not in the format.
 */
export function parseBytes(fmt: string, s: string): Uint8Array {
  switch (normalised(fmt)) {
    case 'HEX': {
      const bad = /[^0-9a-fA-F]/.exec(s);
      if (bad) throw new Error(`Failed to decode invalid hexadecimal string due to character at offset ${bad.index}: ${s}`);
      return new Uint8Array(Buffer.from(s.length % 2 ? '0' + s : s, 'hex'));
    }
    case 'BASE2':
      return fromBase2(s);
    case 'BASE8': {
      const out = fromBase8(s);
      if (!out) throw new Error('Failed to decode invalid base8 string');
      return out;
    }
    case 'BASE64':
    case 'BASE64M': {
      const out = decodeBase64(s);
      if (!out) throw new Error(`Failed to decode invalid base64 string`);
      return out;
    }
    case 'ASCII':
      if (/[^\x00-\x7f]/.test(s)) throw new Error('Failed to decode invalid ASCII string');
      return new Uint8Array(Buffer.from(s, 'latin1'));
    case 'UTF-8':
      return new Uint8Array(Buffer.from(s, 'utf8'));
    default:
      throw invalidFormat(fmt);
  }
}
