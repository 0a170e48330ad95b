/**
 * Validation with validators compiled at generation time (ajv standalone code in each generated package): params
 * are checked before anything is sent; records are checked on the way back when `validateResponses` asks for it.
 * The runtime does not depend on ajv: it only reads the errors a compiled validator leaves behind.
 */
import { ApiError } from './errors.js';

/** One problem a compiled validator reports (the shape of ajv's error objects, with `verbose` data). */
export interface ValidationIssue {
  /** JSON pointer of the offending value, e.g. "/created/gt" ("" for the object itself). */
  instancePath: string;
  /** The JSON Schema keyword that failed: type, maximum, enum, required, additionalProperties, … */
  keyword: string;
  /** Keyword details (limit, allowedValues, missingProperty, additionalProperty, …). */
  params: Record<string, unknown>;
  /** ajv's own wording. */
  message?: string;
  /** The offending value. */
  data?: unknown;
}

/** A validator compiled at generation time: true when valid; `errors` says why not. */
export interface Validator {
  (data: unknown): boolean;
  errors?: ValidationIssue[] | null;
}

/** How responses are checked: not at all, with a logged warning, or by failing the call. */
export type ResponseValidation = 'off' | 'warn' | 'strict';

/** One broken constraint, named the way a reader looks for it. */
export interface ValidationProblem {
  /** Dotted path of the param or field (`limit`, `created.gt`, `filterGroups[0].filters`). */
  path: string;
  /** The constraint: the schema keyword and its limit (`maximum 100`, `enum`, `required`, `unknown`). */
  constraint: string;
  /** The offending value, when there is one. */
  value?: unknown;
  /** One readable sentence. */
  message: string;
}

/** Params that break the spec's constraints; thrown before any request is sent. */
export class ParamValidationError extends Error {
  override name = 'ParamValidationError';
  /** Entity of the call. */
  declare readonly entity: string;
  /** Action of the call. */
  declare readonly action: string;
  /** Every broken constraint. */
  declare readonly problems: ValidationProblem[];
  constructor(entity: string, action: string, problems: ValidationProblem[]) {
    super(`${entity} ${action}: invalid params: ${problems.map((p) => p.message).join('; ')}`);
    Object.assign(this, { entity, action, problems });
  }
}

/** A response record that does not match the contract (validateResponses: 'strict'). */
export class ResponseValidationError extends ApiError {
  override name = 'ResponseValidationError';
  /** Every broken constraint, paths prefixed with the record's index for lists. */
  declare readonly problems: ValidationProblem[];
  constructor(entity: string, action: string, problems: ValidationProblem[]) {
    super(`${entity} ${action}: response does not match the contract: ${problems.map((p) => p.message).join('; ')}`, {
      entity,
      action,
    });
    this.problems = problems;
  }
}

function pathOf(pointer: string, child?: unknown): string {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (typeof child === 'string') segments.push(child);
  return segments.reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : out ? `${out}.${s}` : s), '');
}

function show(value: unknown): string {
  // Its type where JSON has none (undefined, a function) or it is nested deeper than the stack allows (or cyclic):
  // a tool call's arguments or a mock request may be anything, and the message must not fail in its turn.
  let text: string = typeof value;
  try {
    text = JSON.stringify(value) ?? text;
  } catch {}
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Whether `value` nests arrays or objects more than `limit` levels deep. Iterative, as the value may be deeper than
 * the stack: checkers that recurse (ajv's compiled validators, JSON.stringify) overflow on such a value, so servers
 * refuse it first (the mock, the MCP server).
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const todo: [unknown, number][] = [[value, 1]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node))
      if (child !== null && typeof child === 'object') todo.push([child, depth + 1]);
  }
  return false;
}

/** The value at a JSON pointer inside `root` (own properties only). */
function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Turns a compiled validator's errors into readable problems. `noun` is "param" or "field"; `data` is what was
 * validated (the offending value is read from it when the validator does not carry it).
 */
export function describeIssues(
  issues: ValidationIssue[],
  noun: 'param' | 'field',
  data?: unknown,
): ValidationProblem[] {
  return issues.map((issue) => {
    if (!('data' in issue)) issue = { ...issue, data: valueAt(data, issue.instancePath) };
    const p = issue.params;
    switch (issue.keyword) {
      case 'required': {
        const path = pathOf(issue.instancePath, p['missingProperty']);
        return { path, constraint: 'required', message: `missing required ${noun} '${path}'` };
      }
      case 'additionalProperties': {
        const path = pathOf(issue.instancePath, p['additionalProperty']);
        return { path, constraint: 'unknown', message: `unknown ${noun} '${path}'` };
      }
      default: {
        const path = pathOf(issue.instancePath);
        const limit = p['limit'] ?? p['allowedValues'] ?? p['allowedValue'] ?? p['type'] ?? p['pattern'];
        const constraint =
          limit === undefined
            ? issue.keyword
            : `${issue.keyword} ${Array.isArray(limit) ? limit.join(', ') : String(limit)}`;
        return {
          path,
          constraint,
          value: issue.data,
          message: `${noun} '${path || '(params)'}' ${issue.message ?? 'is invalid'} (${constraint}), got ${show(issue.data)}`,
        };
      }
    }
  });
}
