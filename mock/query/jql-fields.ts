/**
 * Where JQL field names point in a project-tracking issue `{ id, key, self, fields }`, and how JQL compares what
 * it finds there: objects by their name, key, value, displayName, emailAddress, accountId or id; arrays by element.
 */
import { equalsOperand, isEmptyValue, isObject, isScalar, labelsOf, own, textLeaves, type Operand } from './values.js';

/** Reads one field of an issue record. */
export type Resolver = (record: Record<string, unknown>) => unknown;

const JQL_LABELS = ['name', 'key', 'value', 'displayName', 'emailAddress', 'accountId', 'id'] as const;
// A Map, not an object literal: a field named `__proto__` or `constructor` must find nothing.
const ALIASES = new Map([
  ['type', 'issuetype'],
  ['due', 'duedate'],
  ['resolved', 'resolutiondate'],
  ['createddate', 'created'],
  ['updateddate', 'updated'],
]);
/** System fields whose ids are lower-case, so `ORDER BY Created` sorts on `fields.created`. */
const SYSTEM_FIELDS = new Set(
  (
    'summary description created updated priority assignee reporter creator issuetype duedate resolution ' +
    'resolutiondate labels components fixversions versions environment parent watches votes timespent ' +
    'timeestimate timeoriginalestimate statuscategorychangedate'
  ).split(' '),
);

/** Whether some non-empty element of a field's value (an array's elements, or the value itself) satisfies `test`. */
export function someElement(value: unknown, test: (element: unknown) => boolean): boolean {
  if (Array.isArray(value)) return value.some((element) => !isEmptyValue(element) && test(element));
  return !isEmptyValue(value) && test(value);
}

/** Whether some label of some element satisfies `test` (objects: name, key, …; scalars: themselves). */
export function anyLabel(value: unknown, test: (label: unknown) => boolean): boolean {
  return someElement(value, (element) => {
    if (!isObject(element)) return test(element);
    for (const key of JQL_LABELS) {
      if (Object.hasOwn(element, key) && isScalar(element[key]) && test(element[key])) return true;
    }
    return false;
  });
}

/** The label an element orders by: an object's first label, a scalar itself. */
export function firstLabel(element: unknown): unknown {
  return isObject(element) ? labelsOf(element, JQL_LABELS)[0] : element;
}

/** Where a field lives: a record reader and the path ORDER BY sorts on. */
export function resolveField(name: string): { read: Resolver; path: string } {
  const lower = name.toLowerCase();
  if (lower === 'key' || lower === 'issuekey') return { read: (r) => own(r, 'key'), path: 'key' };
  if (lower === 'id') return { read: (r) => own(r, 'id'), path: 'id' };
  const fields = (r: Record<string, unknown>) => own(r, 'fields');
  if (lower === 'project') return { read: (r) => own(fields(r), 'project'), path: 'fields.project.key' };
  if (lower === 'status') return { read: (r) => own(fields(r), 'status'), path: 'fields.status.name' };
  if (lower === 'text') return { read: (r) => textLeaves(fields(r)).join(' '), path: 'fields.summary' };
  const custom = /^cf\[(\d+)\]$/i.exec(name);
  const canonical = custom
    ? `customfield_${custom[1]}`
    : (ALIASES.get(lower) ?? (SYSTEM_FIELDS.has(lower) ? lower : name));
  const read: Resolver = (r) => {
    const all = fields(r);
    if (!isObject(all)) return undefined;
    if (Object.hasOwn(all, canonical)) return all[canonical];
    const match = Object.keys(all).find((key) => key.toLowerCase() === canonical.toLowerCase());
    return match === undefined ? undefined : all[match];
  };
  return { read, path: `fields.${canonical}` };
}

/** JQL equality: strings ignoring case, numbers and dates by value. */
export function equalsIgnoringCase(actual: unknown, wanted: Operand): boolean {
  return equalsOperand(actual, wanted, true);
}
