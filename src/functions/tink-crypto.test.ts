/**
 * The AES primitives under the AEAD functions, against published vectors: AES-CMAC (RFC 4493
 * §4 example 2) and AES-SIV (RFC 5297 appendix A.1, deterministic authenticated encryption).
 */
import { describe, expect, it } from 'vitest';
import { cmac, sivDecrypt, sivEncrypt } from './tink-crypto.js';

const h = (s: string) => new Uint8Array(Buffer.from(s.replace(/\s/g, ''), 'hex'));
const hex = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('hex') : b);

describe('AES primitives', () => {
  it('AES-CMAC (RFC 4493 example 2)', () => {
    expect(hex(cmac(h('2b7e151628aed2a6abf7158809cf4f3c'), h('6bc1bee22e409f96e93d7e117393172a')))).toBe('070a16b46b4d4144f79bdd9dd04a287c');
  });
  it('AES-SIV (RFC 5297 A.1)', () => {
    const key = h('fffefdfc fbfaf9f8 f7f6f5f4 f3f2f1f0 f0f1f2f3 f4f5f6f7 f8f9fafb fcfdfeff');
    const ad = h('10111213 14151617 18191a1b 1c1d1e1f 20212223 24252627');
    const out = sivEncrypt(key, [ad], h('11223344 55667788 99aabbcc ddee'));
    expect(hex(out)).toBe('85632d07c6e8f37f950acd320a2ecc93' + '40c02b9690c4dc04daef7f6afe5c');
    expect(hex(sivDecrypt(key, [ad], out))).toBe('112233445566778899aabbccddee');
    expect(sivDecrypt(key, [h('00')], out)).toBeUndefined();
  });
});
