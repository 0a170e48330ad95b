/**
 * YAML that parses but cannot become data: `yaml`'s toJS throws for a merge key (`<<`) whose value is no map, and for
 * aliases that expand to more nodes than the spec reader allows (an alias bomb). Such a file gets a SPEC001 diagnostic
 * at the node concerned, never an internal error: a spec is input, and bad input gets a message that says where and why.
 */
import type * as Yaml from 'yaml';
import type { Document, LineCounter, Node } from 'yaml';
import { DIAGNOSTIC_CODES, type Diagnostic } from './diagnostics.js';

/** Nodes the spec reader lets aliases expand to (yaml's maxAliasCount). */
export const MAX_ALIAS_COUNT = 1000;

/** The diagnostic of `error`, thrown by toJS on `doc` of `file`; `yaml`: the loaded package. */
export function dataErrorDiagnostic(yaml: typeof Yaml, file: string, doc: Document.Parsed, lineCounter: LineCounter, error: unknown): Diagnostic {
  const { isAlias, isMap, isScalar, isSeq, visit } = yaml;
  const message = error instanceof Error ? error.message : String(error);
  const resolved = (node: unknown) => (isAlias(node) ? node.resolve(doc) : node);
  let at: Node | undefined;
  let hint: string = DIAGNOSTIC_CODES.SPEC001.hint;
  if (/merge/i.test(message)) {
    const mergeable = (value: unknown) => {
      const source = resolved(value);
      return isMap(source) || (isSeq(source) && source.items.every((item) => isMap(resolved(item))));
    };
    visit(doc, {
      Pair(_, pair) {
        const key = isScalar(pair.key) ? pair.key.value : undefined;
        if ((key === '<<' || (typeof key === 'symbol' && key.description === '<<')) && !mergeable(pair.value)) {
          at = pair.key as Node;
          return visit.BREAK;
        }
        return undefined;
      },
    });
    hint = 'A merge key (`<<`) takes a map, an alias of a map, or a list of those.';
  } else if (/alias/i.test(message)) {
    // The bomb is an alias of something that holds aliases itself; else the first alias.
    visit(doc, {
      Alias(_, alias) {
        at ??= alias;
        let nested = false;
        const target = alias.resolve(doc);
        if (target)
          visit(target, {
            Alias() {
              nested = true;
              return visit.BREAK;
            },
          });
        if (!nested) return undefined;
        at = alias;
        return visit.BREAK;
      },
    });
    hint = `Aliases may expand to ${MAX_ALIAS_COUNT} nodes at most: write the data out, or nest fewer aliases.`;
  }
  const pos = lineCounter.linePos(at?.range?.[0] ?? 0);
  return { file, line: pos.line, col: pos.col, severity: 'error', code: 'SPEC001', message: `Not readable as data: ${message}`, hint };
}
