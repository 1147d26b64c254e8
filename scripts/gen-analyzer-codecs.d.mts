/** Path (from the repository root) where the build writes the analyzer codecs module. */
export const ANALYZER_CODECS_OUT: string;
/**
 * The text of the analyzer codecs module (an ES module exporting ANALYZER_CODECS, see
 * src/analyzer/analyzer-codecs.ts) for a protobufjs JSON descriptor file (default: the build's
 * dist/analyzer/zetasql-protos.json).
 */
export function generateAnalyzerCodecs(descriptorFile?: string): string;
