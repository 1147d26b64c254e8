/**
 * Security functions (BigQuery "Security functions" page, security_functions): SESSION_USER.
 * The emulator has no identities; it answers the principal it reports on jobs. The encryption
 * functions are in aead.ts.
 */
import type { FnTable } from './registry.js';

/** The security_functions page. */
export const SECURITY_FUNCTIONS: FnTable = {
  session_user: () => `'bqemu@localhost'`,
};
