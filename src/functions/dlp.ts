/**
 * The DLP encryption functions of BigQuery's dlp_functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/dlp_functions): their keys are
 * data encryption keys wrapped by Cloud KMS (DLP_KEY_CHAIN), which the emulator does not have, so
 * each is refused by name (as KEYS.KEYSET_CHAIN is, src/functions/aead.ts).
 */
import type { FnTable } from './registry.js';

const reason = 'its keys are wrapped by Cloud KMS, which the emulator does not have';

/** DLP_DETERMINISTIC_ENCRYPT, DLP_DETERMINISTIC_DECRYPT, DLP_KEY_CHAIN. */
export const DLP_FUNCTIONS: FnTable = Object.fromEntries(
  ['dlp_deterministic_encrypt', 'dlp_deterministic_decrypt', 'dlp_key_chain'].map((n) => [n, { unsupported: reason }]),
);
