/**
 * Protocol buffer functions (GoogleSQL "Protocol buffer functions"): the analyzer knows them, but
 * protocol buffers are not BigQuery types, so each is rejected with the reason.
 */
import type { FnTable } from './registry.js';

/** GoogleSQL's protocol buffer functions, all rejected. */
export const PROTOCOL_BUFFER_FUNCTIONS: FnTable = {
  filter_fields: { unsupported: 'protocol buffers are not BigQuery types' },
  contains_key: { unsupported: 'protocol buffer maps are not BigQuery types' },
  modify_map: { unsupported: 'protocol buffer maps are not BigQuery types' },
};
