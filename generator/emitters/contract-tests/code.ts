/**
 * Statements of the generated contract tests as prettier documents (see ../ts/doc.ts), so the files come out as
 * prettier formats them and skip it: data (params, rules, field lists) goes through the literal printer, which breaks
 * it the way prettier does; every other statement is kept short enough for one line (long expressions are split into
 * named steps), so no call needs prettier's argument-breaking rules.
 */
import { hardline, indent, join, type Doc } from '../ts/doc.js';
import { literal, str, type LiteralValue } from '../ts/syntax.js';

/** `const name = <literal>;` (`const name: type = …` with a type). */
export const constOf = (name: string, value: LiteralValue, type?: string): Doc => ['const ', name, type ? `: ${type}` : '', ' = ', literal(value), ';'];

/** `const name = (arg: type) => (<literal>);`: data that depends on one value. */
export const arrowOf = (name: string, param: string, value: LiteralValue): Doc => [`const ${name} = (${param}) => (`, literal(value), ');'];

/** `head {` statements `}` (`for (…)`, `if (…)`, or a bare block with an empty head). */
export const blockOf = (head: string, statements: Doc[]): Doc => [head ? `${head} {` : '{', indent([hardline, join(hardline, statements)]), hardline, '}'];

/** `test('title', async () => { … });` (prettier keeps a test call's head on one line, however long). */
export const testOf = (title: string, statements: Doc[]): Doc => [`test(${str(title)}, async () => {`, indent([hardline, join(hardline, statements)]), hardline, '});'];

/** `describe('title', () => { … });` with its members separated by a blank line. */
export const describeOf = (title: string, members: Doc[]): Doc => [`describe(${str(title)}, () => {`, indent([hardline, join([hardline, hardline], members)]), hardline, '});'];

/** Every record a list call walks to: `await h.all(method(params as never) as never)`. */
export const allOf = (method: string, params: string): string => `await h.all(${method}(${params} as never) as never)`;

/** The first statement of every test. */
export const CLIENT = 'const client = await h.client(AUTH);';
