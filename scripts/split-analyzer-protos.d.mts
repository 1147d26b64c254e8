/** The local service's methods whose types are in the core descriptor. */
export const CORE_METHODS: string[];
/** The analyzer's descriptor split into the core (CORE_METHODS' types) and the rest. */
export function splitAnalyzerDescriptor(root: unknown): { core: Record<string, unknown>; rest: Record<string, unknown> };
