/**
 * The graph functions of BigQuery's graph-sql-functions page
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/graph-sql-functions): they read
 * graph elements and paths of a property graph (GRAPH_TABLE / graph queries), which neither the
 * bundled analyzer nor the emulator has, so each is refused by name.
 */
import type { FnTable } from './registry.js';

const reason = 'graph queries over a property graph are not supported by the emulator';

/** DESTINATION_NODE_ID, EDGES, ELEMENT_ID, IS_ACYCLIC, IS_SIMPLE, IS_TRAIL, LABELS, NODES, PATH_FIRST, PATH_LAST, PATH_LENGTH, SOURCE_NODE_ID. */
export const GRAPH_FUNCTIONS: FnTable = Object.fromEntries(
  ['destination_node_id', 'edges', 'element_id', 'is_acyclic', 'is_simple', 'is_trail', 'labels', 'nodes', 'path_first', 'path_last', 'path_length', 'source_node_id'].map((n) => [
    n,
    { unsupported: reason },
  ]),
);
