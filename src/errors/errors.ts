/**
 * The error catalogue's entry point under its historical path: everything is defined in the
 * family files of this folder and exported by src/errors/index.ts.
 */
export * from './index.js';
