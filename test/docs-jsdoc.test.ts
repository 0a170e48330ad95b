/**
 * JSDoc of the generated clients — what an editor shows on hover. Every exported type, every member (nested
 * ones included) and every method of types.ts and client.ts has a doc comment, methods carry `@example`, and
 * everything the spec marks deprecated carries `@deprecated` with the spec's words. A TypeScript language
 * service then hovers real usages, as an editor does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import { paramsTypeName, recordTypeName, searchFieldsTypeName, metaTypeName } from '../generator/emitters/clients/types-file.js';
import { pascalCase } from '../generator/emitters/naming.js';
import type { PropertyIR, SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';

const repo = path.resolve(import.meta.dirname, '..');
const generated = path.join(repo, 'generated');

let ir: SpecIR;
beforeAll(async () => {
  ir = (await readSpec(path.join(repo, 'spec'))).ir;
});

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
}

/** The doc comment nodes of a declaration. */
const docsOf = (node: ts.Node) => ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
/** The description text of a declaration's doc comment. */
const descriptionOf = (node: ts.Node) => docsOf(node).map((d) => ts.getTextOfJSDocComment(d.comment) ?? '').join('\n').trim();
/** The text of one tag (`example`, `deprecated`) of a declaration, if it has it. */
function tagOf(node: ts.Node, tag: string): string | undefined {
  const found = docsOf(node)
    .flatMap((d) => d.tags ?? [])
    .find((t) => t.tagName.text === tag);
  return found && (ts.getTextOfJSDocComment(found.comment) ?? '');
}

function memberName(m: ts.TypeElement | ts.ClassElement, file: ts.SourceFile): string {
  if (ts.isIndexSignatureDeclaration(m)) return '[index]';
  if (ts.isConstructorDeclaration(m)) return 'constructor';
  return m.name ? m.name.getText(file) : '?';
}

/** Type literals inside a type (nested object params and fields, array elements, nullable unions). */
function innerLiterals(type: ts.TypeNode | undefined): ts.TypeLiteralNode[] {
  if (!type) return [];
  if (ts.isTypeLiteralNode(type)) return [type];
  const out: ts.TypeLiteralNode[] = [];
  type.forEachChild((child) => {
    if (ts.isTypeNode(child)) out.push(...innerLiterals(child));
  });
  return out;
}

/** Every member that lacks a doc comment, by path, walking nested type literals; counts the members seen. */
function undocumentedMembers(members: readonly ts.TypeElement[], owner: string, file: ts.SourceFile, seen: { count: number }): string[] {
  return members.flatMap((m) => {
    seen.count++;
    const where = `${owner}.${memberName(m, file)}`;
    const own = descriptionOf(m) ? [] : [where];
    const type = ts.isPropertySignature(m) ? m.type : undefined;
    return [...own, ...innerLiterals(type).flatMap((lit) => undocumentedMembers(lit.members, where, file, seen))];
  });
}

describe('every generated type, field and method has JSDoc', () => {
  test('types.ts and client.ts of every package: exported declarations, members, nested members, methods with @example', () => {
    const problems: string[] = [];
    const seen = { count: 0 };
    for (const c of ir.connectors) {
      for (const name of ['types.ts', 'client.ts']) {
        const file = parse(path.join(generated, c.id, 'src', name));
        const at = (what: string) => `${c.id}/src/${name} ${what}`;
        for (const statement of file.statements) {
          const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
          if (!exported) continue;
          const declName = (statement as ts.DeclarationStatement).name?.getText(file) ?? '?';
          if (!descriptionOf(statement)) problems.push(at(`${declName}: no JSDoc`));
          if (ts.isInterfaceDeclaration(statement)) {
            problems.push(...undocumentedMembers(statement.members, declName, file, seen).map((m) => at(`${m}: no JSDoc`)));
            for (const m of statement.members.filter(ts.isMethodSignature)) {
              if (!tagOf(m, 'example')) problems.push(at(`${declName}.${memberName(m, file)}: no @example`));
            }
          } else if (ts.isTypeAliasDeclaration(statement)) {
            for (const lit of innerLiterals(statement.type)) {
              problems.push(...undocumentedMembers(lit.members, declName, file, seen).map((m) => at(`${m}: no JSDoc`)));
            }
          } else if (ts.isClassDeclaration(statement)) {
            if (!tagOf(statement, 'example')) problems.push(at(`${declName}: no @example`));
            for (const m of statement.members) {
              seen.count++;
              if (!descriptionOf(m)) problems.push(at(`${declName}.${memberName(m, file)}: no JSDoc`));
              if (ts.isMethodDeclaration(m) && !tagOf(m, 'example')) problems.push(at(`${declName}.${memberName(m, file)}: no @example`));
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(seen.count).toBeGreaterThan(2500);
  });

  /** `connector member: first line` of every property doc of every package's types.ts whose first line `bad` matches. */
  const propertyDocsMatching = (bad: RegExp): string[] => {
    const found: string[] = [];
    for (const c of ir.connectors) {
      const file = parse(path.join(generated, c.id, 'src', 'types.ts'));
      const visit = (node: ts.Node): void => {
        if (ts.isPropertySignature(node)) {
          const first = descriptionOf(node).split('\n')[0]!;
          if (bad.test(first)) found.push(`${c.id} ${node.name.getText(file)}: ${first}`);
        }
        node.forEachChild(visit);
      };
      visit(file);
    }
    return found;
  };

  test('a description runs into the facts after it only across a stop ("… 4 low. One of `0`, …", not "4 low One of")', () => {
    expect(propertyDocsMatching(/[^.!?:)] (One of|Always|May be null)/)).toEqual([]);
  });

  test('no doc comment merely repeats the member name ("The `x` field.")', () => {
    expect(propertyDocsMatching(/^The `[^`]+` field\.$|^Value\.$/)).toEqual([]);
  });

  test('everything the spec marks deprecated is @deprecated with the spec\'s words', () => {
    /** Deprecated properties (nested ones by path) of a list of IR properties. */
    const deprecatedPaths = (props: PropertyIR[], prefix: string[] = []): { path: string[]; why: string }[] =>
      props.flatMap((p) => [
        ...(p.deprecated ? [{ path: [...prefix, p.name], why: p.deprecated }] : []),
        ...deprecatedPaths(p.properties ?? p.items?.properties ?? [], [...prefix, p.name]),
      ]);
    const expected: { connector: string; type: string; path: string[]; why: string }[] = [];
    for (const c of ir.connectors) {
      for (const r of c.records) for (const d of deprecatedPaths(r.properties)) expected.push({ connector: c.id, type: recordTypeName(r.name), ...d });
      for (const m of c.meta) for (const d of deprecatedPaths(m.properties)) expected.push({ connector: c.id, type: metaTypeName(m.name), ...d });
      for (const e of c.entities) {
        if (e.searchable) for (const d of deprecatedPaths(e.searchable.properties)) expected.push({ connector: c.id, type: searchFieldsTypeName(e.name), ...d });
        for (const a of e.actions) {
          if (a.name !== 'search') for (const d of deprecatedPaths(a.params)) expected.push({ connector: c.id, type: paramsTypeName(e.name, a.name), ...d });
          if (a.deprecated) expected.push({ connector: c.id, type: `${pascalCase(e.name)}Resource`, path: [a.name], why: a.deprecated });
        }
      }
    }
    // The seeds mark charge card, source, order and statement_description, and content.pointsOfInterest.
    expect(expected.length).toBeGreaterThanOrEqual(5);
    for (const item of expected) {
      const files = ['types.ts', 'client.ts'].map((n) => parse(path.join(generated, item.connector, 'src', n)));
      const decl = files.flatMap((f) => f.statements.filter((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === item.type).map((s) => ({ s, f })))[0];
      expect(decl, `${item.connector} ${item.type}`).toBeDefined();
      let members: readonly ts.TypeElement[] = decl!.s.members;
      let member: ts.TypeElement | undefined;
      for (const name of item.path) {
        member = members.find((m) => memberName(m, decl!.f).replace(/^'|'$/g, '') === name);
        expect(member, `${item.connector} ${item.type}.${item.path.join('.')}`).toBeDefined();
        members = innerLiterals(ts.isPropertySignature(member!) ? member.type : undefined)[0]?.members ?? [];
      }
      expect(tagOf(member!, 'deprecated'), `${item.connector} ${item.type}.${item.path.join('.')}`).toBe(item.why);
    }
  });
});

describe('hovers in an editor (TypeScript language service)', () => {
  const usagePath = path.join(repo, 'test', '__hover_usage__.ts');
  const usage = [
    "import { PaymentsClient, type Charge, type ChargesSearchFields } from '@connector-sdk/payments';",
    "import { CallRecordingClient } from '@connector-sdk/call-recording';",
    "import type { Contact } from '@connector-sdk/crm';",
    "import type { Customer } from '@connector-sdk/payments';",
    "const options = { baseUrl: 'http://localhost', token: 't', sourceId: 's' };",
    'const payments = new PaymentsClient(options);',
    'const callRecording = new CallRecordingClient(options);',
    'export const page = payments.customers.list({ limit: 10 });',
    "export const hits = payments.charges.search({ query: { filter: { eq: { order: 'x' } } } });",
    'export const calls = callRecording.callsExtensive.list({ filter: {}, contentSelector: { exposedFields: { content: { pointsOfInterest: true } } } });',
    'declare const charge: Charge;',
    'export const amount = charge.amount;',
    'declare const searchable: ChargesSearchFields;',
    'export const card = searchable.card;',
    'declare const contact: Contact;',
    'export const archivedAt = contact.archivedAt;',
    'declare const customer: Customer;',
    'export const kind = customer.object;',
    '',
  ].join('\n');

  function languageService(): ts.LanguageService {
    const config = ts.readConfigFile(path.join(repo, 'tsconfig.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repo);
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [usagePath],
      getScriptVersion: () => '1',
      getScriptSnapshot: (f) => {
        const text = f === usagePath ? usage : ts.sys.readFile(f);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => repo,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (f) => f === usagePath || ts.sys.fileExists(f),
      readFile: (f) => (f === usagePath ? usage : ts.sys.readFile(f)),
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    return ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  let service: ts.LanguageService;
  beforeAll(() => {
    service = languageService();
  });

  /** Quick info at the n-th occurrence of `needle` in the usage (hovering its first character). */
  function hover(needle: string, occurrence = 1) {
    let at = -1;
    for (let i = 0; i < occurrence; i++) at = usage.indexOf(needle, at + 1);
    const info = service.getQuickInfoAtPosition(usagePath, at);
    return {
      documentation: ts.displayPartsToString(info?.documentation),
      tags: Object.fromEntries((info?.tags ?? []).map((t) => [t.name, ts.displayPartsToString(t.text)])),
    };
  }

  test('the usage compiles', () => {
    const diagnostics = [...service.getSyntacticDiagnostics(usagePath), ...service.getSemanticDiagnostics(usagePath)];
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  }, 60_000);

  test('a method shows its description, how to page and an @example', () => {
    const info = hover('list(');
    expect(info.documentation).toContain('Returns a page of records of the entity.');
    expect(info.documentation).toContain('for await');
    expect(info.tags['example']).toContain('payments.customers.list(');
  });

  test('a search method names the searchable fields its filters take, with an @example', () => {
    const info = hover('search(');
    expect(info.documentation).toContain('`ChargesSearchFields`');
    expect(info.tags['example']).toContain('payments.charges.search({ query:');
  });

  test('a record field shows its description from the spec', () => {
    expect(hover('amount;').documentation).toBe('Amount in the smallest currency unit.');
  });

  test('a field the contract does not describe says so, with what its type tells (null, literal)', () => {
    expect(hover('archivedAt;').documentation).toBe('Not described by the contract. May be null.');
    expect(hover('object;').documentation).toBe("Not described by the contract. Always `'customer'`.");
  });

  test('a deprecated searchable field in a search filter shows @deprecated with the reason', () => {
    expect(hover('order:').tags['deprecated']).toBe('Deprecated in the reference.');
  });

  test('a deprecated nested param shows @deprecated with the reason', () => {
    expect(hover('pointsOfInterest').tags['deprecated']).toBe('Deprecated; use highlights.');
  });

  test('reading a deprecated field is flagged as deprecated (editors strike it through)', () => {
    expect(hover('card;').tags['deprecated']).toBe('Deprecated in the reference.');
    const flagged = service
      .getSuggestionDiagnostics(usagePath)
      .filter((d) => d.reportsDeprecated)
      .map((d) => usage.slice(d.start, d.start! + d.length!));
    expect(flagged).toEqual(['card']);
  });
});
