/**
 * Request bodies parsed with turns of the event loop between passes over a long body
 * (parseJsonBodyYielding), with the same answers and errors as the one-pass parseJsonBody: the
 * protobuf JSON parser's "Message too deep" wording past MAX_JSON_DEPTH and its syntax complaints.
 */
import { describe, expect, it } from 'vitest';
import { LONG_TEXT_CHARS } from '../../config/limits.js';
import { MAX_JSON_DEPTH } from '../../config/request-limits.js';
import { parseJsonBody, parseJsonBodyYielding } from './json-body.js';
import { turnsDuring } from '../../../test/helpers/event-loop-turns.js';

describe('parseJsonBodyYielding', () => {
  it('answers what parseJsonBody answers, and lets other work run on a long body', async () => {
    const long = JSON.stringify({ description: 'x'.repeat(LONG_TEXT_CHARS), labels: { a: 'b' } });
    const r = await turnsDuring(() => parseJsonBodyYielding(long));
    expect(r.value).toEqual(parseJsonBody(long));
    expect(r.turns).toBeGreaterThanOrEqual(2);
    const short = await turnsDuring(() => parseJsonBodyYielding('{"a": [1, 2]}'));
    expect(short.value).toEqual({ a: [1, 2] });
    expect(short.turns).toBe(0);
    expect(await parseJsonBodyYielding('  ')).toEqual({});
  });

  it('raises the errors parseJsonBody raises', async () => {
    const deep = `{"k": ${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}, "pad": "${'x'.repeat(LONG_TEXT_CHARS)}"}`;
    const text = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    await expect(parseJsonBodyYielding(deep)).rejects.toThrow(text(() => parseJsonBody(deep)));
    expect(text(() => parseJsonBody(deep))).toContain("Message too deep. Max recursion depth reached for key 'k'");
    const broken = `{"a": "${'y'.repeat(LONG_TEXT_CHARS)}" "b": 1}`;
    await expect(parseJsonBodyYielding(broken)).rejects.toThrow('Expected , or } after key:value pair.');
  });
});
