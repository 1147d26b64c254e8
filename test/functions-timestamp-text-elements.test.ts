/**
 * Format elements of the timestamp text functions through the real client: PARSE_TIMESTAMP /
 * PARSE_DATETIME `%s` (seconds since the epoch).
 * Expected values and error texts: the ZetaSQL reference evaluator (test/differential/evaluator.ts),
 * e.g. PARSE_TIMESTAMP('%s', '-62135596800') = 0001-01-01 00:00:00 UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const row = async (query: string) => {
  const [rows] = await t.bq.query({ query });
  const r = rows[0] as Record<string, unknown>;
  return Object.values(r).map((v) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v));
};
const err = async (query: string) => (await errorOf(t.bq.query({ query }))).message;

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => t?.emu.close());

describe('PARSE_TIMESTAMP / PARSE_DATETIME %s (reference evaluator)', () => {
  it('parses seconds since the epoch, ignoring the time zone argument', async () => {
    expect(
      await row(`SELECT PARSE_TIMESTAMP('%s', '-62135596800') AS a, PARSE_TIMESTAMP('%s', '1700000000') AS b,
        PARSE_TIMESTAMP('%s', '253402300799') AS c, PARSE_TIMESTAMP('%s', '17', 'America/New_York') AS d,
        PARSE_TIMESTAMP('%s', '-00000000017') AS e, PARSE_DATETIME('%s', '1700000000') AS f, PARSE_DATETIME('%s', '-62135596800') AS g`),
    ).toEqual([
      '0001-01-01T00:00:00.000Z', '2023-11-14T22:13:20.000Z', '9999-12-31T23:59:59.000Z', '1970-01-01T00:00:17.000Z',
      '1969-12-31T23:59:43.000Z', '2023-11-14T22:13:20', '0001-01-01T00:00:00',
    ]);
  });

  it('matches surrounding text and whitespace; a repeated %s keeps the last', async () => {
    expect(
      await row(`SELECT PARSE_TIMESTAMP('%s', ' 17\\n') AS a, PARSE_TIMESTAMP('at %s!', 'at 17!') AS b,
        PARSE_TIMESTAMP('at %s', 'at  17') AS c, PARSE_TIMESTAMP('%s%%', '17%') AS d, PARSE_TIMESTAMP('%s %s', '1 2') AS e,
        SAFE.PARSE_TIMESTAMP('%s', 'x') AS f, PARSE_DATE('%s', NULL) AS g`),
    ).toEqual(['1970-01-01T00:00:17.000Z', '1970-01-01T00:00:17.000Z', '1970-01-01T00:00:17.000Z', '1970-01-01T00:00:17.000Z', '1970-01-01T00:00:02.000Z', null, null]);
  });

  it('refuses malformed, too long and out-of-range seconds, and DATE / TIME', async () => {
    for (const s of ['+17', '1.5', '', '-0', '1 7', '0000000000017', '-999999999999', '99999999999999999999']) {
      expect(await err(`SELECT PARSE_TIMESTAMP('%s', '${s}')`)).toContain(`Failed to parse input string "${s}"`);
    }
    expect(await err(`SELECT PARSE_TIMESTAMP('at%s', 'at 17')`)).toContain('Failed to parse input string "at 17"');
    expect(await err(`SELECT PARSE_TIMESTAMP('%s', '253402300800')`)).toContain('Invalid result from parsing function');
    expect(await err(`SELECT PARSE_DATETIME('%s', '-62135596801')`)).toContain('Invalid result from parsing function');
    expect(await err(`SELECT PARSE_DATE('%s', '1700000000')`)).toContain('Invalid format: %s is not allowed for the DATE type.');
    expect(await err(`SELECT PARSE_TIME('%s', '1700000000')`)).toContain('Invalid format: %s is not allowed for the TIME type.');
  });
});
