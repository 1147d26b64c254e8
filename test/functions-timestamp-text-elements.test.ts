/**
 * Format elements of the timestamp text functions through the real client: PARSE_TIMESTAMP /
 * PARSE_DATETIME `%s` (seconds since the epoch) and FORMAT_TIMESTAMP `%Z` / `%z` / `%Ez`.
 * Expected values and error texts: the ZetaSQL reference evaluator (test/differential/evaluator.ts),
 * e.g. PARSE_TIMESTAMP('%s', '-62135596800') = 0001-01-01 00:00:00 UTC and
 * FORMAT_TIMESTAMP('%Z', TIMESTAMP '2020-06-01 00:00:00 UTC', 'Asia/Kolkata') = 'UTC+0530'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRow, queryError, startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
const row = async (query: string) => Object.values(await firstRow(t, query));
const err = (query: string) => queryError(t, query);

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

describe('FORMAT_TIMESTAMP %Z (reference evaluator)', () => {
  it('writes UTC±H for whole hours, else UTC±HHMM like %z', async () => {
    const zones = ['Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', '-03:30', 'UTC', 'America/New_York', 'Europe/Paris'];
    expect(await row(`SELECT ${zones.map((z, i) => `FORMAT_TIMESTAMP('%Z|%z|%Ez', TIMESTAMP '2020-06-01 00:00:00 UTC', '${z}') AS c${i}`).join(', ')}`)).toEqual([
      'UTC+0530|+0530|+05:30', 'UTC-0230|-0230|-02:30', 'UTC+1245|+1245|+12:45', 'UTC-0330|-0330|-03:30', 'UTC|+0000|+00:00', 'UTC-4|-0400|-04:00', 'UTC+2|+0200|+02:00',
    ]);
  });
});
