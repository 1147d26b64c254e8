// Splits the analyzer's protobufjs descriptor in two for a faster start (src/analyzer/analyzer-protos.ts):
// - core: what the emulator's own calls to the analyzer use — the message types and enums
//   reachable from the requests and answers of CORE_METHODS (~370 of ~890 types), the services,
//   every extension field and all of google.protobuf;
// - rest: every other top-level type and enum (the parse tree of `Parse`, the evaluator's
//   messages), added to the same root the first time a method needs them.
// Building a root costs in proportion to its types (protobufjs creates every type, field and enum
// object up front), and the first query needs only the core (bench/results/2026-11-27-cold-start-2.md).
// A type nested in a core type stays inside it; a top-level type of the rest may refer to core
// types (they are in the root by then), never the other way round (core is closed under references).
import protobuf from 'protobufjs';

/** The local service's methods the emulator calls on every query path (src/analyzer, src/engine). */
export const CORE_METHODS = ['Analyze', 'ExtractTableNamesFromStatement', 'ExtractTableNamesFromNextStatement', 'RegisterCatalog', 'UnregisterCatalog', 'GetBuiltinFunctions', 'GetLanguageOptions', 'GetAnalyzerOptions'];

/**
 * `{ core, rest }`, two descriptors in protobufjs `Root#toJSON`'s shape, from a loaded root of the
 * analyzer's protos (its service `zetasql.local_service.ZetaSqlLocalService`).
 */
export function splitAnalyzerDescriptor(root) {
  root.resolveAll();
  const service = root.lookupService('zetasql.local_service.ZetaSqlLocalService');
  const reached = new Set();
  const queue = [];
  const reach = (t) => {
    if (t && !reached.has(t)) {
      reached.add(t);
      if (t instanceof protobuf.Type) queue.push(t);
    }
  };
  for (const m of service.methodsArray) if (CORE_METHODS.includes(m.name)) (reach(m.resolvedRequestType), reach(m.resolvedResponseType));
  while (queue.length) for (const f of queue.pop().fieldsArray) reach(f.resolvedType);
  // A type is core when it or a type nested in it is reached.
  const isCore = (o) => reached.has(o) || (o instanceof protobuf.Type && o.nestedArray.some(isCore));
  const json = root.toJSON();
  const split = (ns, nsJson) => {
    const core = {};
    const rest = {};
    for (const [name, entry] of Object.entries(nsJson.nested ?? {})) {
      const o = ns.get(name);
      const plainNamespace = !(o instanceof protobuf.Type || o instanceof protobuf.Enum || o instanceof protobuf.Service || o instanceof protobuf.Field);
      if (plainNamespace && o.fullName !== '.google') {
        const inner = split(o, entry);
        core[name] = { ...entry, nested: inner.core };
        if (Object.keys(inner.rest).length) rest[name] = { nested: inner.rest };
      } else if (o.fullName === '.google' || o instanceof protobuf.Service || o instanceof protobuf.Field || isCore(o)) core[name] = entry;
      else rest[name] = entry;
    }
    return { core, rest };
  };
  const { core, rest } = split(root, json);
  return { core: { ...json, nested: core }, rest: { nested: rest } };
}
