/** Path (from the repository root) of the generated resolved-AST types. */
export const RESOLVED_AST_OUT: string;
/** The text of src/analyzer/generated/resolved-ast.ts generated from the analyzer's resolved_ast.proto. */
export function generateResolvedAst(): string;
