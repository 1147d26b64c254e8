/**
 * Types of the parts of `lz4js` (a maintained pure-JavaScript implementation of the LZ4 block and
 * frame formats) that bqemu uses: raw LZ4 blocks of ORC files (src/jobs/orc/orc-compression.ts).
 */
declare module 'lz4js' {
  /**
   * Decodes the LZ4 block `src[sIndex, sIndex + sLength)` into `dst` from `dIndex` on.
   * @returns the index after the last byte written (past `dst.length` when the block is bigger)
   */
  export function decompressBlock(src: Uint8Array, dst: Uint8Array, sIndex: number, sLength: number, dIndex: number): number;
}
