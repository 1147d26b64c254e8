/**
 * The analyzer messages' protobufjs codecs written out ahead of time, by message type full name
 * (`.zetasql.AnalyzeRequest`). This file is the stand-in that tsx and the tests run: it holds
 * none, and every codec is then generated at its first use as protobufjs does by default. The
 * build writes the real module over its compiled output (scripts/gen-analyzer-codecs.mjs:
 * dist/analyzer/analyzer-codecs.js, the same generators run once at build time over the
 * descriptor the build writes beside it); analyzer-protos.ts installs them.
 */

/** A message type's generated codec functions, in this order (protobufjs Type#setup's scope). */
export type AnalyzerCodecFactory = (
  Writer: unknown,
  Reader: unknown,
  types: unknown[],
  util: unknown,
) => [encode: unknown, decode: unknown, fromObject: unknown, toObject: unknown];

/**
 * Type full name → [its field names joined by ',' (the descriptor the codecs were made from),
 * the factory of its codecs].
 */
export const ANALYZER_CODECS: Readonly<Record<string, readonly [fields: string, make: AnalyzerCodecFactory]>> = {};
