/**
 * Hash functions. Expected values: BigQuery docs (hash_functions: FARM_FINGERPRINT example) and the
 * recorded fixtures standard_functions/hash_*, math_rand_ish_deterministic; FarmHash vectors for
 * the longer branches from the FarmHash Fingerprint64 test vectors published with Guava.
 */
import { describe, expect, it } from 'vitest';
import { call, ev, evText, lit, T } from './testkit.js';

describe('hash functions', () => {
  it('MD5/SHA1/SHA512 (fixtures hash_md5, hash_sha1_basic, hash_sha512_basic)', async () => {
    expect(await evText('md5', T.bytes, [lit.str('hello')])).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(await evText('md5', T.bytes, [lit.bytes('hello')])).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(await evText('sha1', T.bytes, [lit.str('hello')])).toBe('aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d');
    expect(await evText('sha512', T.bytes, [lit.str('hello')])).toBe(
      '9b71d224bd62f3785d96d46ad3ea3d73319bfbc2890caadae2dff72519673ca72323c3d99ba5c11d7c7acc6e14b8c5da0c4663475c2e5c3adef46f73bcdec043',
    );
    expect(await evText('sha256', T.bytes, [lit.str('hello')])).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(await ev('md5', T.bytes, [lit.null(T.str)])).toBe(null);
  });

  it('FARM_FINGERPRINT', async () => {
    const fp = (s: string) => ev('farm_fingerprint', T.int, [lit.str(s)]);
    expect(await fp('hello')).toBe('-5436999610281751320');
    expect(await fp('seed-42')).toBe('-1445242963413924359');
    // docs example: CONCAT(CAST(x AS STRING), y, CAST(z AS STRING))
    expect(await fp('1footrue')).toBe('-1541654101129638711');
    expect(await fp('2applefalse')).toBe('2794438866806483259');
    expect(await fp('3true')).toBe('-4880158226897771312');
    expect(await fp('test'.repeat(8))).toBe('-4196240717365766262');
    expect(await fp('test'.repeat(64))).toBe('3500507768004279527');
    expect(await ev('farm_fingerprint', T.int, [lit.bytes('alphabet')])).toBe('-2427165924636348523');
    expect(await ev('farm_fingerprint', T.int, [call('md5', T.bytes, [lit.null(T.str)])])).toBe(null);
  });
});
