/**
 * Cross-checks the spec against the contract by a route independent of the spec files.
 *
 * The test reads the seed documents (../../shared/seeds/*.txt) itself and parses them with its own small
 * parser, then compares what it found with the catalogue that `buildCatalogue(readSpec('spec').ir)` builds:
 *
 *   1. entity–action pairs per connector (and a hand-transcribed table of counts);
 *   2. every record field list the seeds write out ("Customer record: id string; ..."), field by field:
 *      type, nullability, literal (const), enum, array element type and inner fields;
 *   3. every searchable-field list ("... searchable fields (action search): name type; ..."), name by name.
 *
 * Irregular seed phrases are special-cased below, each with a comment. Every record and searchable statement
 * of the seeds must be claimed by the hand-written mapping, and every mapping entry must find its statement,
 * so nothing is skipped silently. Failure messages list every mismatch.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildCatalogue } from '../generator/emitters/catalogue/describe.js';
import { readSpec } from '../generator/spec/read.js';

// ---------------------------------------------------------------------------------------------------------
// Locations
// ---------------------------------------------------------------------------------------------------------

const testDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(testDir, '..');

/** The seeds live in <workspace>/shared/seeds, next to the repository; search upwards to be robust. */
function seedsDir(): string {
  const direct = fileURLToPath(new URL('../../shared/seeds/', import.meta.url));
  const candidates = [direct];
  for (let dir = testDir; ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, 'shared', 'seeds'));
    if (path.dirname(dir) === dir) break;
  }
  const found = candidates.find((d) => existsSync(d) && readdirSync(d).some((f) => /^000_.*\.txt$/.test(f)));
  if (!found) throw new Error(`seed directory not found (looked in ${candidates.join(', ')})`);
  return found;
}

function readSeed(dir: string, prefix: string): string {
  const file = readdirSync(dir).find((f) => f.startsWith(`${prefix}_`) && f.endsWith('.txt'));
  if (!file) throw new Error(`seed ${prefix}_*.txt not found in ${dir}`);
  return readFileSync(path.join(dir, file), 'utf8');
}

// ---------------------------------------------------------------------------------------------------------
// The catalogue, as far as this test reads it (structural subset of describe.ts's Catalogue)
// ---------------------------------------------------------------------------------------------------------

interface CatField {
  name: string;
  type: string;
  nullable: boolean;
  items?: string;
  enum?: (string | number | boolean)[];
  const?: string | number | boolean;
  fields?: CatField[];
}
interface CatAction {
  name: string;
  result: { shape: string; record?: string; fields: CatField[]; unspecified: boolean };
}
interface CatEntity {
  name: string;
  searchableFields?: { name: string; type: string; enum?: (string | number | boolean)[] }[];
  actions: CatAction[];
}
interface CatConnector {
  id: string;
  entities: CatEntity[];
}
interface Cat {
  connectors: CatConnector[];
}

// ---------------------------------------------------------------------------------------------------------
// Seed model
// ---------------------------------------------------------------------------------------------------------

interface SeedField {
  name: string;
  /** Base types joined by '|', without null; undefined when the seed names the field without a type. */
  type?: string;
  nullable: boolean;
  /** Element type expression, only when the seed writes array<T>. */
  items?: string;
  enum?: string[];
  const?: string;
  /** Inner fields of array elements / objects, when the seed lists them in parentheses. */
  fields?: SeedField[];
  /** "attachments (same shape as candidate attachments)": resolved by a special case below. */
  sameShapeAs?: string;
}

/** A "... record ...: fields" or "... searchable fields ...: fields" statement of the Resources section. */
interface Statement {
  connector: string;
  /** Text before the first top-level colon. */
  label: string;
  /** The label without parenthesised remarks, whitespace collapsed: the key the mappings use. */
  key: string;
  body: string;
  /** The paragraph (line) the statement is part of. */
  paragraph: string;
  /** Index of the statement within its paragraph. */
  index: number;
}

const BASE_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'any']);

const CONNECTOR_IDS = [
  'payments',
  'crm',
  'issue_tracking',
  'code_hosting',
  'call_recording',
  'recruiting',
  'email_marketing',
  'team_messaging',
  'project_tracking',
  'customer_messaging',
  'live_chat',
  'support_desk',
  'advertising',
  'file_storage',
  'work_management',
] as const;

/** Hand-transcribed from the seeds' "Entities and actions" lists: [entities, entity–action pairs]. */
const EXPECTED_COUNTS: Record<string, [number, number]> = {
  payments: [11, 39],
  crm: [6, 19],
  issue_tracking: [4, 12],
  code_hosting: [21, 40],
  call_recording: [16, 23],
  recruiting: [12, 21],
  email_marketing: [12, 19],
  team_messaging: [8, 13],
  project_tracking: [6, 19],
  customer_messaging: [7, 14],
  live_chat: [12, 25],
  support_desk: [22, 51],
  advertising: [3, 6],
  file_storage: [10, 17],
  work_management: [22, 28],
};
const EXPECTED_TOTALS = { entities: 172, pairs: 346 };

// ---------------------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------------------

/** Splits at any of `seps` outside parentheses and angle brackets; trims, drops empty pieces. */
function splitTop(s: string, seps: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '<') depth++;
    else if (ch === ')' || ch === '>') depth--;
    if (depth === 0 && seps.includes(ch)) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t.length > 0);
}

/** Index of the first `ch` outside parentheses, or -1. */
function indexTop(s: string, ch: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === ch) return i;
  }
  return -1;
}

/** Sentences of a paragraph: split at ". " (outside parentheses) followed by an upper-case letter. */
function sentences(paragraph: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '.' && depth === 0 && /^\s+[A-Z]/.test(paragraph.slice(i + 1, i + 3))) {
      out.push(paragraph.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(paragraph.slice(start).trim().replace(/\.$/, ''));
  return out.filter((s) => s.length > 0);
}

/** Lines of the part of a seed under `## heading`, up to the next `## ` heading. */
function section(text: string, heading: string): string[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^## /.test(line)) break;
    out.push(line);
  }
  return out;
}

/** "### Team-messaging connector" → team_messaging. */
function connectorIdOf(heading: string): string {
  return heading
    .replace(/^###\s+/, '')
    .replace(/\s+connector\s*$/i, '')
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '_');
}

/** Table rows (cells) of consecutive `|` lines starting at `from`, without header and separator rows. */
function tableRows(lines: string[], from: number): string[][] {
  const rows: string[][] = [];
  let i = from;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  for (; i < lines.length && lines[i]!.trim().startsWith('|'); i++) {
    const cells = lines[i]!.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
    if (cells.every((c) => /^-+$/.test(c))) continue;
    rows.push(cells);
  }
  return rows.slice(1); // header
}

/** Sorts the members of a `|` union so that order does not matter: "integer|string" = "string|integer". */
function normUnion(expr: string | undefined): string | undefined {
  if (expr === undefined) return undefined;
  return splitTop(expr.replace(/\s+/g, ''), '|')
    .map((p) => {
      const m = /^array<(.*)>$/.exec(p);
      return m ? `array<${normUnion(m[1])}>` : p;
    })
    .sort()
    .join('|');
}

// ---------------------------------------------------------------------------------------------------------
// Field-list parser
// ---------------------------------------------------------------------------------------------------------

/** "(a, b or c)" / "(a or b)": a remark that enumerates the allowed values of a string field. */
const ENUM_REMARK = /^[\w-]+(?:, [\w-]+)*,? or [\w-]+$/;

interface TypeInfo {
  type?: string;
  nullable: boolean;
  items?: string;
  enum?: string[];
  const?: string;
  fields?: SeedField[];
  sameShapeAs?: string;
}

/** Parses "TYPE [(remark | inner fields)]" — everything after a field name. */
function parseTypePart(rest: string, ctx: string, errors: string[]): TypeInfo {
  let before = rest.trim();
  let paren: string | undefined;
  const open = before.indexOf('(');
  if (open >= 0) {
    if (!before.endsWith(')')) errors.push(`${ctx}: text after a parenthesis in '${rest}'`);
    paren = before.slice(open + 1, -1).trim();
    before = before.slice(0, open).trim();
  }
  if (before === '') {
    // Special case (recruiting Application record): "attachments (same shape as candidate attachments)".
    const same = paren !== undefined ? /^same shape as (.+)$/.exec(paren) : null;
    if (same) return { nullable: false, sameShapeAs: same[1]! };
    errors.push(`${ctx}: no type in '${rest}'`);
    return { nullable: false };
  }
  // Special case (support-desk Ticket searchable fields): "satisfaction_rating object or string" is a union.
  before = before.replace(/\s+or\s+/g, '|');
  if (/\s/.test(before)) {
    errors.push(`${ctx}: cannot read type '${before}'`);
    return { nullable: false };
  }
  const info: TypeInfo = { nullable: false };
  const literal = /^'([^']*)'$/.exec(before);
  if (literal) {
    // "object 'customer'": the field holds exactly that value (a string literal).
    info.type = 'string';
    info.const = literal[1]!;
  } else {
    const types: string[] = [];
    const words: string[] = [];
    for (const part of splitTop(before, '|')) {
      const arr = /^array<(.+)>$/.exec(part);
      if (part === 'null') info.nullable = true;
      else if (arr) {
        types.push('array');
        info.items = arr[1]!.replace(/\s+/g, '');
      } else if (BASE_TYPES.has(part)) types.push(part);
      // Special case (work-management Attachment list record): "gid, resource_type, name, resource_subtype strings".
      else if (part === 'strings') types.push('string');
      else if (/^[\w-]+$/.test(part)) words.push(part);
      else errors.push(`${ctx}: cannot read type part '${part}'`);
    }
    if (words.length > 0 && types.length > 0) errors.push(`${ctx}: mixes types and values in '${before}'`);
    if (words.length > 0) {
      // "status succeeded|pending|failed": bare words that are not types are the allowed values of a string.
      info.type = 'string';
      info.enum = words;
    } else info.type = types.join('|');
  }
  if (paren !== undefined && paren !== '') {
    const isContainer = info.type !== undefined && /\b(array|object)\b/.test(info.type);
    const innerErrors: string[] = [];
    const inner = isContainer ? parseFieldList(paren, ctx, innerErrors) : [];
    if (isContainer && innerErrors.length === 0 && inner.length > 0) info.fields = inner;
    else if (info.type === 'string' && !info.enum && ENUM_REMARK.test(paren)) info.enum = paren.split(/,? or |, /);
    // Anything else in parentheses is a remark: "(smallest currency unit)", "(deprecated)", "(seconds)".
  }
  return info;
}

/**
 * Parses "name type; name, name type (remark); ..." — separators ';' and ',' outside parentheses. Bare names
 * wait for the next typed name: "created_at, opened_at string" is two string fields.
 */
function parseFieldList(body: string, ctx: string, errors: string[]): SeedField[] {
  const fields: SeedField[] = [];
  let pending: string[] = [];
  for (const token of splitTop(body, ';,')) {
    const m = /^([A-Za-z_]\w*)(?:\s+([\s\S]*))?$/.exec(token);
    if (!m) {
      errors.push(`${ctx}: cannot parse '${token}'`);
      continue;
    }
    const name = m[1]!;
    const rest = m[2];
    if (rest === undefined) {
      pending.push(name);
      continue;
    }
    const info = parseTypePart(rest, `${ctx}/${name}`, errors);
    for (const n of [...pending, name]) fields.push(structuredClone({ name: n, ...info }));
    pending = [];
  }
  if (pending.length > 0) errors.push(`${ctx}: names without a type: ${pending.join(', ')}`);
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.name)) errors.push(`${ctx}: field ${f.name} listed twice`);
    seen.add(f.name);
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------------------
// Seed parsing
// ---------------------------------------------------------------------------------------------------------

interface ParsedSeeds {
  /** connector → set of "entity/action". */
  pairs: Map<string, Set<string>>;
  records: Statement[];
  searchables: Statement[];
  /** All sentences of the Resources sections per connector (for the special cases). */
  sentencesOf: Map<string, string[]>;
  /** States tables: row label → values. */
  states: Map<string, string[]>;
  errors: string[];
}

function parseSeeds(texts: string[]): ParsedSeeds {
  const parsed: ParsedSeeds = { pairs: new Map(), records: [], searchables: [], sentencesOf: new Map(), states: new Map(), errors: [] };
  for (const text of texts) {
    const lines = section(text, 'Resources and their fields');
    let connector: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.startsWith('### ')) {
        connector = connectorIdOf(line);
        continue;
      }
      if (!connector || line.trim() === '' || line.trim().startsWith('|')) continue;
      const paragraph = line.trim();

      // 1. "Entities and actions: ..." — a table (payments) or a prose list.
      const ea = /^Entities and actions:\s*(.*)$/.exec(paragraph);
      if (ea) {
        const set = parsed.pairs.get(connector) ?? new Set<string>();
        parsed.pairs.set(connector, set);
        const body = ea[1]!.replace(/\.$/, '').trim();
        if (body === '') {
          for (const cells of tableRows(lines, i + 1)) {
            const [entity, actions] = cells;
            if (!entity || !actions) parsed.errors.push(`${connector}: bad entity table row '${cells.join(' | ')}'`);
            else for (const a of actions.split(',')) set.add(`${entity}/${a.trim()}`);
          }
        } else {
          for (const item of splitTop(body, ';')) {
            // "candidates, applications, jobs (list, get each)"; "application_attachment and candidate_attachment (download)".
            const m = /^(.*?)\s*\(([^()]*)\)$/.exec(item);
            if (!m) {
              parsed.errors.push(`${connector}: cannot parse entity item '${item}'`);
              continue;
            }
            const entities = m[1]!.split(/,\s*|\s+and\s+/).map((e) => e.trim()).filter(Boolean);
            const actions = m[2]!.replace(/\s+each$/, '').split(',').map((a) => a.trim()).filter(Boolean);
            for (const e of entities) for (const a of actions) set.add(`${e}/${a}`);
          }
        }
        continue;
      }

      // 2 and 3. Record and searchable-field statements, one or more per paragraph.
      const list = parsed.sentencesOf.get(connector) ?? [];
      parsed.sentencesOf.set(connector, list);
      sentences(paragraph).forEach((sentence, index) => {
        list.push(sentence);
        const colon = indexTop(sentence, ':');
        if (colon < 0) return;
        const label = sentence.slice(0, colon).trim();
        const body = sentence.slice(colon + 1).trim();
        if (/^not shown/i.test(body)) return;
        const key = label.replace(/\s*\([^()]*\)/g, '').replace(/\s+/g, ' ').trim();
        const st: Statement = { connector: connector!, label, key, body, paragraph, index };
        if (/searchable fields/i.test(label)) parsed.searchables.push(st);
        else if (/\brecords?\b/i.test(label)) parsed.records.push(st);
      });
    }

    // States tables: "| entity and field | allowed values |".
    const states = section(text, 'States and transitions');
    const header = states.findIndex((l) => l.trim().startsWith('|'));
    if (header >= 0) for (const [label, values] of tableRows(states, header)) if (label && values) parsed.states.set(label, values.split(',').map((v) => v.trim()));
  }
  return parsed;
}

// ---------------------------------------------------------------------------------------------------------
// Hand-written mappings: where each seed statement lives in the catalogue
// ---------------------------------------------------------------------------------------------------------

interface RecordMapping {
  connector: string;
  /** Statement key: the label without parenthesised remarks. */
  key: string;
  /** "entity/action" whose result holds the record. */
  places: string[];
  /** The seed marks the record as cut off: its fields must be present, extra catalogue fields are allowed. */
  partial?: true;
}

const rw = (entity: string, ...actions: string[]) => actions.map((a) => `${entity}/${a}`);

const RECORD_MAPPINGS: RecordMapping[] = [
  // payments (seed 001). Charge and product records: the endpoint table names their results only for
  // charges api_search (a search_result envelope) and products api_search, so they are compared at charges
  // get and products api_search.
  { connector: 'payments', key: 'Customer record', places: rw('customers', 'list', 'create', 'get', 'update', 'api_search') },
  { connector: 'payments', key: 'Deleted-customer record', places: rw('customers', 'delete') },
  { connector: 'payments', key: 'Charge record', places: rw('charges', 'get') },
  { connector: 'payments', key: 'Product record', places: rw('products', 'api_search') },
  { connector: 'payments', key: 'Balance record', places: rw('balance', 'get') },
  { connector: 'payments', key: 'Balance transaction record', places: rw('balance_transactions', 'list', 'get') },
  { connector: 'payments', key: 'Payment intent record', places: rw('payment_intents', 'list', 'get', 'api_search') },
  { connector: 'payments', key: 'Dispute record', places: rw('disputes', 'list', 'get') },
  // "Payout record (up to the last field given)"; "payout fields after statement_descriptor: not shown".
  { connector: 'payments', key: 'Payout record', places: rw('payouts', 'list'), partial: true },
  // crm
  { connector: 'crm', key: 'Record shape of contacts and companies', places: [...rw('contacts', 'list', 'get', 'api_search'), ...rw('companies', 'list', 'get', 'api_search')] },
  // call_recording
  { connector: 'call_recording', key: 'User record', places: rw('users', 'list', 'get') },
  { connector: 'call_recording', key: 'Call record', places: rw('calls', 'list', 'get') },
  { connector: 'call_recording', key: 'Extensive call record', places: rw('calls_extensive', 'list') },
  // recruiting
  { connector: 'recruiting', key: 'Candidate record', places: rw('candidates', 'list', 'get') },
  { connector: 'recruiting', key: 'Application record', places: rw('applications', 'list', 'get') },
  { connector: 'recruiting', key: 'Job record', places: rw('jobs', 'list', 'get') },
  { connector: 'recruiting', key: 'Offer record', places: rw('offers', 'list', 'get') },
  { connector: 'recruiting', key: 'User record', places: rw('users', 'list', 'get') },
  { connector: 'recruiting', key: 'Department record', places: rw('departments', 'list', 'get') },
  { connector: 'recruiting', key: 'Office record', places: rw('offices', 'list', 'get') },
  // email_marketing
  { connector: 'email_marketing', key: 'Campaign record', places: rw('campaigns', 'list', 'get') },
  { connector: 'email_marketing', key: 'List record', places: rw('lists', 'list', 'get') },
  { connector: 'email_marketing', key: 'List member record', places: rw('list_members', 'list', 'get') },
  { connector: 'email_marketing', key: 'Report record', places: rw('reports', 'list', 'get') },
  { connector: 'email_marketing', key: 'Email activity record', places: rw('email_activity', 'list') },
  // team_messaging
  { connector: 'team_messaging', key: 'User record', places: rw('users', 'list', 'get') },
  { connector: 'team_messaging', key: 'Channel record', places: rw('channels', 'list', 'get', 'create', 'update') },
  { connector: 'team_messaging', key: 'Message record', places: rw('channel_messages', 'list') },
  { connector: 'team_messaging', key: 'Posted or updated message record', places: rw('messages', 'create', 'update') },
  // project_tracking
  { connector: 'project_tracking', key: 'Issue record', places: rw('issues', 'get', 'api_search') },
  { connector: 'project_tracking', key: 'Project record', places: rw('projects', 'get', 'api_search') },
  // customer_messaging
  { connector: 'customer_messaging', key: 'Contact record', places: rw('contacts', 'list', 'get') },
  { connector: 'customer_messaging', key: 'Conversation record', places: rw('conversations', 'list', 'get') },
  { connector: 'customer_messaging', key: 'Company record', places: rw('companies', 'list', 'get') },
  { connector: 'customer_messaging', key: 'Team record', places: rw('teams', 'list', 'get') },
  { connector: 'customer_messaging', key: 'Admin record', places: rw('admins', 'list', 'get') },
  { connector: 'customer_messaging', key: 'Tag record', places: rw('tags', 'list', 'get') },
  { connector: 'customer_messaging', key: 'Segment record', places: rw('segments', 'list', 'get') },
  // live_chat
  { connector: 'live_chat', key: 'Account record', places: rw('accounts', 'get') },
  { connector: 'live_chat', key: 'Agent record', places: rw('agents', 'list', 'get') },
  { connector: 'live_chat', key: 'Agent timeline record', places: rw('agent_timeline', 'list') },
  { connector: 'live_chat', key: 'Ban record', places: rw('bans', 'get') }, // "Ban record (get)"
  { connector: 'live_chat', key: 'Chat record', places: rw('chats', 'list', 'get') },
  { connector: 'live_chat', key: 'Department record', places: rw('departments', 'list', 'get') },
  // support_desk
  { connector: 'support_desk', key: 'Ticket record', places: rw('tickets', 'list', 'get') },
  { connector: 'support_desk', key: 'User record', places: rw('users', 'list', 'get') },
  { connector: 'support_desk', key: 'Brand record', places: rw('brands', 'list', 'get') },
  { connector: 'support_desk', key: 'View record', places: rw('views', 'list', 'get') },
  { connector: 'support_desk', key: 'Macro record', places: rw('macros', 'list', 'get') },
  { connector: 'support_desk', key: 'Trigger record', places: rw('triggers', 'list', 'get') },
  // advertising
  { connector: 'advertising', key: 'Profile record', places: rw('profiles', 'list', 'get') },
  { connector: 'advertising', key: 'Portfolio record', places: rw('portfolios', 'get') }, // "(get)"
  { connector: 'advertising', key: 'Sponsored-product campaign record', places: rw('sponsored_product_campaigns', 'get') }, // "(get)"
  // file_storage
  { connector: 'file_storage', key: 'File record', places: rw('files', 'list', 'get') },
  { connector: 'file_storage', key: 'Shared-drive record', places: rw('drives', 'list', 'get') },
  { connector: 'file_storage', key: 'Permission record', places: rw('permissions', 'list', 'get') },
  { connector: 'file_storage', key: 'Comment record', places: rw('comments', 'list', 'get') },
  // work_management
  { connector: 'work_management', key: 'Task list record', places: [...rw('tasks', 'list'), ...rw('project_tasks', 'list'), ...rw('workspace_task_search', 'list')] },
  // "Task get record: gid string (other fields cut off in the reference)".
  { connector: 'work_management', key: 'Task get record', places: rw('tasks', 'get'), partial: true },
  {
    // One field list for four records: "Project list record (...), workspace list record, user list record (...), team list record (...)".
    connector: 'work_management',
    key: 'Project list record, workspace list record, user list record, team list record',
    places: [
      ...['projects', 'task_projects', 'team_projects', 'workspace_projects'].flatMap((e) => rw(e, 'list')),
      ...rw('workspaces', 'list'),
      ...['users', 'workspace_users', 'team_users'].flatMap((e) => rw(e, 'list')),
      ...['workspace_teams', 'user_teams'].flatMap((e) => rw(e, 'list')),
    ],
  },
  { connector: 'work_management', key: 'Attachment list record', places: rw('attachments', 'list') },
  { connector: 'work_management', key: 'Project get record', places: rw('projects', 'get') },
  { connector: 'work_management', key: 'Workspace get record', places: rw('workspaces', 'get') },
  { connector: 'work_management', key: 'User get record', places: rw('users', 'get') },
  { connector: 'work_management', key: 'Team get record', places: rw('teams', 'get') },
];

interface SearchMapping {
  connector: string;
  key: string;
  /** For the CRM form "contacts: ...; ... companies: ...": the sub-list. */
  sub?: string;
  entity: string;
}

const SEARCH_MAPPINGS: SearchMapping[] = [
  { connector: 'payments', key: 'Customer searchable fields', entity: 'customers' },
  { connector: 'payments', key: 'Charge searchable fields', entity: 'charges' },
  { connector: 'crm', key: 'Searchable fields', sub: 'contacts', entity: 'contacts' },
  { connector: 'crm', key: 'Searchable fields', sub: 'companies', entity: 'companies' },
  { connector: 'call_recording', key: 'User searchable fields', entity: 'users' },
  { connector: 'call_recording', key: 'Call searchable fields', entity: 'calls' },
  { connector: 'call_recording', key: 'Extensive call searchable fields', entity: 'calls_extensive' },
  { connector: 'project_tracking', key: 'Issue searchable fields', entity: 'issues' },
  { connector: 'project_tracking', key: 'Project searchable fields', entity: 'projects' },
  { connector: 'live_chat', key: 'Agent searchable fields', entity: 'agents' },
  { connector: 'live_chat', key: 'Chat searchable fields', entity: 'chats' },
  { connector: 'live_chat', key: 'Department searchable fields', entity: 'departments' },
  { connector: 'support_desk', key: 'Ticket searchable fields', entity: 'tickets' },
  { connector: 'support_desk', key: 'Ticket-field searchable fields', entity: 'ticket_fields' },
  { connector: 'support_desk', key: 'Brand searchable fields', entity: 'brands' },
];

/**
 * Enumerations the seeds give in their "States and transitions" tables rather than in the record line. Rows
 * marked "(list filter)" concern params and are not listed. Where the record line already enumerates the
 * values, the row must agree with it (a seed self-consistency check).
 */
const STATE_OVERLAYS: { row: string; connector: string; key: string; field: string }[] = [
  { row: 'charge status', connector: 'payments', key: 'Charge record', field: 'status' },
  { row: 'balance transaction status', connector: 'payments', key: 'Balance transaction record', field: 'status' },
  { row: 'payout method', connector: 'payments', key: 'Payout record', field: 'method' },
  { row: 'payment intent capture_method', connector: 'payments', key: 'Payment intent record', field: 'capture_method' },
  { row: 'payment intent confirmation_method', connector: 'payments', key: 'Payment intent record', field: 'confirmation_method' },
  { row: 'support-desk ticket status', connector: 'support_desk', key: 'Ticket record', field: 'status' },
  { row: 'support-desk user role', connector: 'support_desk', key: 'User record', field: 'role' },
  { row: 'email-marketing campaign type', connector: 'email_marketing', key: 'Campaign record', field: 'type' },
];

// ---------------------------------------------------------------------------------------------------------
// Building the seed records (generic statements plus the special cases)
// ---------------------------------------------------------------------------------------------------------

interface SeedRecord {
  connector: string;
  name: string;
  fields: SeedField[];
  places: string[];
  partial: boolean;
}

interface SeedSearchable {
  connector: string;
  name: string;
  entity: string;
  fields: SeedField[];
}

function buildSeedRecords(parsed: ParsedSeeds, errors: string[]): SeedRecord[] {
  const records: SeedRecord[] = [];
  const byKey = new Map<string, SeedRecord>();
  const claimed = new Set<Statement>();

  for (const m of RECORD_MAPPINGS) {
    const found = parsed.records.filter((s) => s.connector === m.connector && s.key === m.key);
    if (found.length !== 1) {
      errors.push(`${m.connector}: mapping '${m.key}' matches ${found.length} seed record statements (expected 1)`);
      continue;
    }
    const st = found[0]!;
    claimed.add(st);
    if (m.partial && !/cut off|up to the last field/i.test(`${st.label} ${st.body}`)) {
      errors.push(`${m.connector}: '${m.key}' is mapped as partial but the seed does not say it is cut off`);
    }
    const rec: SeedRecord = { connector: m.connector, name: st.label, fields: parseFieldList(st.body, `${m.connector}/${st.label}`, errors), places: m.places, partial: !!m.partial };
    records.push(rec);
    byKey.set(`${m.connector}: ${m.key}`, rec);
  }
  for (const st of parsed.records) if (!claimed.has(st)) errors.push(`${st.connector}: seed record statement '${st.label}' has no mapping in the test`);

  const rec = (connector: string, key: string): SeedRecord | undefined => byKey.get(`${connector}: ${key}`);
  const sentence = (connector: string, re: RegExp): RegExpExecArray | undefined => {
    for (const s of parsed.sentencesOf.get(connector) ?? []) {
      const m = re.exec(s);
      if (m) return m;
    }
    errors.push(`${connector}: no seed sentence matches ${re}`);
    return undefined;
  };

  // Special case (recruiting): Application "attachments (same shape as candidate attachments)".
  for (const r of records) {
    for (const f of r.fields) {
      if (f.sameShapeAs === undefined) continue;
      const cand = r.connector === 'recruiting' && f.sameShapeAs === 'candidate attachments' ? rec('recruiting', 'Candidate record')?.fields.find((x) => x.name === 'attachments') : undefined;
      if (!cand) errors.push(`${r.connector}/${r.name}/${f.name}: cannot resolve 'same shape as ${f.sameShapeAs}'`);
      else {
        const { name: _n, ...shape } = structuredClone(cand);
        Object.assign(f, shape);
        delete f.sameShapeAs;
      }
    }
  }

  // Special case (states tables): enumerations given outside the record lines.
  for (const o of STATE_OVERLAYS) {
    const values = parsed.states.get(o.row);
    const field = rec(o.connector, o.key)?.fields.find((f) => f.name === o.field);
    if (!values || !field) {
      errors.push(`${o.connector}: states row '${o.row}' or field ${o.key}/${o.field} not found`);
      continue;
    }
    if (field.enum && JSON.stringify(field.enum) !== JSON.stringify(values)) {
      errors.push(`${o.connector}/${o.key}/${o.field}: record line says ${field.enum.join('|')}, states table says ${values.join('|')}`);
    }
    field.enum = values;
  }

  // Special case (team messaging): "Threads records add parent_user_id string|null." — Message record plus that.
  const message = rec('team_messaging', 'Message record');
  const add = sentence('team_messaging', /^Threads records add (.+)$/);
  if (message && add) {
    records.push({
      connector: 'team_messaging',
      name: 'Thread message record (Message record + "Threads records add ...")',
      fields: [...structuredClone(message.fields), ...parseFieldList(add[1]!, 'team_messaging/threads', errors)],
      places: rw('threads', 'list'),
      partial: false,
    });
  }

  // Special case (team messaging): "Channel topics create returns a channel record (the record fields are listed
  // only up to name_normalized in the reference)" — the Channel record's fields up to that one, partial.
  const channel = rec('team_messaging', 'Channel record');
  const topics = sentence('team_messaging', /^Channel topics create returns a channel record \(the record fields are listed only up to (\w+) in the reference\)$/);
  if (channel && topics) {
    const last = channel.fields.findIndex((f) => f.name === topics[1]);
    if (last < 0) errors.push(`team_messaging: Channel record has no field ${topics[1]}`);
    else records.push({ connector: 'team_messaging', name: `Channel record up to ${topics[1]} (channel_topics create)`, fields: structuredClone(channel.fields.slice(0, last + 1)), places: rw('channel_topics', 'create'), partial: true });
  }

  // Special case (issue tracking): "Every record of every action is an object with one field, data (object)."
  const data = sentence('issue_tracking', /^Every record of every action is an object with one field, (\w+) \((\w+)\)$/);
  if (data) {
    records.push({
      connector: 'issue_tracking',
      name: 'record of every action (one field, data)',
      fields: parseFieldList(`${data[1]} ${data[2]}`, 'issue_tracking/data', errors),
      places: [...(parsed.pairs.get('issue_tracking') ?? [])],
      partial: false,
    });
  }

  // Special case (code hosting): "each comment in a list result carries both id (node identifier) and
  // databaseId (numeric identifier)" — names only (no types given), the rest of the record is not shown.
  const ids = sentence('code_hosting', /each comment in a list result carries both (\w+) \([^)]*\) and (\w+) \([^)]*\)$/);
  if (ids) {
    records.push({ connector: 'code_hosting', name: 'comment identifiers in list results', fields: [{ name: ids[1]!, nullable: false }, { name: ids[2]!, nullable: false }], places: rw('comments', 'list'), partial: true });
  }
  return records;
}

function buildSeedSearchables(parsed: ParsedSeeds, errors: string[]): SeedSearchable[] {
  const out: SeedSearchable[] = [];
  const claimed = new Set<Statement>();
  for (const m of SEARCH_MAPPINGS) {
    const found = parsed.searchables.filter((s) => s.connector === m.connector && s.key === m.key);
    if (found.length !== 1) {
      errors.push(`${m.connector}: searchable mapping '${m.key}' matches ${found.length} seed statements (expected 1)`);
      continue;
    }
    const st = found[0]!;
    claimed.add(st);
    const ctx = `${m.connector}/${st.label}${m.sub ? `/${m.sub}` : ''}`;
    let body = st.body;
    if (m.sub) {
      // Special case (CRM): "Searchable fields (action search): contacts: a t; ... . companies: a t; ..." —
      // one statement with a sub-list per entity.
      const parts = new Map<string, string>();
      for (const piece of body.split(/(?:^|\.\s+)(?=[a-z_]+:\s)/)) {
        const pm = /^([a-z_]+):\s+(.*)$/s.exec(piece.trim());
        if (pm) parts.set(pm[1]!, pm[2]!.replace(/\.$/, ''));
      }
      const sub = parts.get(m.sub);
      if (sub === undefined) {
        errors.push(`${ctx}: sub-list not found`);
        continue;
      }
      body = sub;
    }
    // "the same names ...": derived from the record statement just before, in the same paragraph.
    const recordBefore = (): SeedField[] | undefined => {
      const prev = parsed.records.find((r) => r.paragraph === st.paragraph && r.index === st.index - 1);
      if (!prev) errors.push(`${ctx}: no record statement precedes 'the same names'`);
      return prev ? parseFieldList(prev.body, `${ctx} (record)`, errors) : undefined;
    };
    let fields: SeedField[] | undefined;
    let m1: RegExpExecArray | null;
    if ((m1 = /^the same names, with types (.+)$/.exec(body))) {
      // call_recording users: the type list is written out; its names must be the record's names.
      fields = parseFieldList(m1[1]!, ctx, errors);
      const rec = recordBefore();
      if (rec) {
        const a = rec.map((f) => f.name).sort().join(',');
        const b = fields.map((f) => f.name).sort().join(',');
        if (a !== b) errors.push(`${ctx}: 'the same names' differ from the record's: record ${a}; list ${b}`);
      }
    } else if ((m1 = /^the same names, all (\w+) except (.+)$/.exec(body))) {
      // call_recording calls: "all string except duration integer and isPrivate boolean".
      const rec = recordBefore();
      const except = parseFieldList(m1[2]!.replace(/\s+and\s+/g, ', '), ctx, errors);
      if (rec) {
        fields = rec.map((f) => except.find((e) => e.name === f.name) ?? { name: f.name, type: m1![1]!, nullable: false });
        for (const e of except) if (!rec.some((f) => f.name === e.name)) errors.push(`${ctx}: exception ${e.name} is not a record field`);
      }
    } else if ((m1 = /^the same names; (\w+) is (\w+), others as above$/.exec(body))) {
      // support_desk brands: "the same names; logo is string, others as above".
      const rec = recordBefore();
      if (rec) {
        if (!rec.some((f) => f.name === m1![1])) errors.push(`${ctx}: ${m1[1]} is not a record field`);
        fields = rec.map((f) => (f.name === m1![1] ? { name: f.name, type: m1![2]!, nullable: false } : f));
      }
    } else if (/^the same names/.test(body)) {
      errors.push(`${ctx}: unhandled 'the same names' form: ${body}`);
    } else fields = parseFieldList(body, ctx, errors);
    if (fields) out.push({ connector: m.connector, name: `${st.key}${m.sub ? ` (${m.sub})` : ''}`, entity: m.entity, fields });
  }
  for (const st of parsed.searchables) if (!claimed.has(st)) errors.push(`${st.connector}: seed searchable statement '${st.label}' has no mapping in the test`);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------------------------

const show = (v: unknown): string => (v === undefined ? '(none)' : Array.isArray(v) ? v.join('|') : String(v));

let fieldsCompared = 0;

/** Compares seed fields with catalogue fields; pushes one message per difference. */
function compareFields(where: string, seed: SeedField[], cat: CatField[], exact: boolean, out: string[]): void {
  const byName = new Map(cat.map((f) => [f.name, f]));
  for (const s of seed) {
    fieldsCompared++;
    const c = byName.get(s.name);
    const at = `${where}/${s.name}`;
    if (!c) {
      out.push(`${at}: seed lists the field${s.type ? ` (${s.type}${s.nullable ? '|null' : ''})` : ''}, spec does not have it`);
      continue;
    }
    if (s.type === undefined) continue; // the seed names the field without a type
    if (normUnion(s.type) !== normUnion(c.type)) out.push(`${at}: type — seed says ${s.type}, spec says ${c.type}`);
    if (s.nullable !== c.nullable) out.push(`${at}: nullable — seed says ${s.nullable}, spec says ${c.nullable}`);
    if (show(s.const) !== show(c.const)) out.push(`${at}: const — seed says ${show(s.const)}, spec says ${show(c.const)}`);
    if (show(s.enum) !== show(c.enum)) out.push(`${at}: enum — seed says ${show(s.enum)}, spec says ${show(c.enum)}`);
    if (s.items !== undefined && normUnion(s.items) !== normUnion(c.items)) out.push(`${at}: items — seed says array<${s.items}>, spec says ${c.items === undefined ? '(none)' : `array<${c.items}>`}`);
    if (s.fields) {
      if (!c.fields) out.push(`${at}: seed lists inner fields (${s.fields.map((f) => f.name).join(', ')}), spec has none`);
      else compareFields(at, s.fields, c.fields, true, out);
    }
  }
  if (exact) {
    const seedNames = new Set(seed.map((f) => f.name));
    for (const c of cat) if (!seedNames.has(c.name)) out.push(`${where}/${c.name}: spec has the field (${c.type}${c.nullable ? '|null' : ''}), seed does not list it`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------------------

let cat: Cat;
let parsed: ParsedSeeds;
let records: SeedRecord[];
let searchables: SeedSearchable[];
const parseErrors: string[] = [];

function connectorOf(id: string): CatConnector | undefined {
  return cat.connectors.find((c) => c.id === id);
}

function catPairs(c: CatConnector): Set<string> {
  return new Set(c.entities.flatMap((e) => e.actions.map((a) => `${e.name}/${a.name}`)));
}

beforeAll(async () => {
  const dir = seedsDir();
  parsed = parseSeeds(['000', '001', '002'].map((p) => readSeed(dir, p)));
  parseErrors.push(...parsed.errors);
  records = buildSeedRecords(parsed, parseErrors);
  searchables = buildSeedSearchables(parsed, parseErrors);
  cat = buildCatalogue((await readSpec(path.join(repoRoot, 'spec'))).ir);
}, 60_000);

describe('seed cross-check (independent parse of shared/seeds)', () => {
  test('the seed parser reads every statement and every mapping finds its statement', () => {
    expect(parseErrors, `${parseErrors.length} seed parse problem(s):\n${parseErrors.join('\n')}`).toEqual([]);
    expect([...parsed.pairs.keys()].sort()).toEqual([...CONNECTOR_IDS].sort());
  });

  test('entity–action pairs per connector equal the seeds’ "Entities and actions" lists', () => {
    const out: string[] = [];
    for (const id of CONNECTOR_IDS) {
      const seed = parsed.pairs.get(id) ?? new Set<string>();
      const c = connectorOf(id);
      if (!c) {
        out.push(`${id}: connector missing from the spec`);
        continue;
      }
      const spec = catPairs(c);
      for (const p of [...seed].sort()) if (!spec.has(p)) out.push(`${id}/${p}: seed lists the pair, spec does not have it`);
      for (const p of [...spec].sort()) if (!seed.has(p)) out.push(`${id}/${p}: spec has the pair, seed does not list it`);
    }
    for (const c of cat.connectors) if (!(CONNECTOR_IDS as readonly string[]).includes(c.id)) out.push(`${c.id}: spec connector not in the seeds`);
    expect(out, `${out.length} mismatch(es):\n${out.join('\n')}`).toEqual([]);
  });

  test('entity and pair counts match the hand-transcribed table (172 entities, 346 pairs)', () => {
    const out: string[] = [];
    let entities = 0;
    let pairs = 0;
    for (const id of CONNECTOR_IDS) {
      const [e, p] = EXPECTED_COUNTS[id]!;
      entities += e;
      pairs += p;
      const c = connectorOf(id);
      const seedPairs = parsed.pairs.get(id) ?? new Set<string>();
      const seedEntities = new Set([...seedPairs].map((x) => x.split('/')[0]));
      if (seedEntities.size !== e || seedPairs.size !== p) out.push(`${id}: seed parse gives ${seedEntities.size} entities / ${seedPairs.size} pairs, table says ${e} / ${p}`);
      const ce = c?.entities.length ?? 0;
      const cp = c ? catPairs(c).size : 0;
      if (ce !== e || cp !== p) out.push(`${id}: spec has ${ce} entities / ${cp} pairs, table says ${e} / ${p}`);
    }
    expect({ entities, pairs }).toEqual(EXPECTED_TOTALS);
    const specTotals = { entities: cat.connectors.reduce((n, c) => n + c.entities.length, 0), pairs: cat.connectors.reduce((n, c) => n + catPairs(c).size, 0) };
    if (specTotals.entities !== EXPECTED_TOTALS.entities || specTotals.pairs !== EXPECTED_TOTALS.pairs) out.push(`totals: spec has ${specTotals.entities} entities / ${specTotals.pairs} pairs`);
    expect(out, `${out.length} mismatch(es):\n${out.join('\n')}`).toEqual([]);
  });

  test('every record field the seeds write out is in the spec with the same type, nullability, const, enum and items', () => {
    const out: string[] = [];
    fieldsCompared = 0;
    let places = 0;
    for (const r of records) {
      const c = connectorOf(r.connector);
      for (const place of r.places) {
        const [entity, actionName] = place.split('/');
        const where = `${r.connector}/${place} [${r.name}]`;
        const action = c?.entities.find((e) => e.name === entity)?.actions.find((a) => a.name === actionName);
        if (!action) {
          out.push(`${where}: no such entity/action in the spec`);
          continue;
        }
        places++;
        if (!r.partial && action.result.unspecified) out.push(`${where}: seed lists the record completely, spec marks the result unspecified`);
        compareFields(where, r.fields, action.result.fields, !r.partial, out);
      }
    }
    console.log(`seed cross-check: ${records.length} seed records (${records.reduce((n, r) => n + r.fields.length, 0)} top-level fields) compared at ${places} entity/action places; ${fieldsCompared} field comparisons (inner fields included)`);
    expect(out, `${out.length} mismatch(es):\n${out.join('\n')}`).toEqual([]);
  });

  test('every searchable-field list of the seeds equals the entity’s searchableFields in the spec', () => {
    const out: string[] = [];
    const covered = new Set<string>();
    for (const s of searchables) {
      const entity = connectorOf(s.connector)?.entities.find((e) => e.name === s.entity);
      const where = `${s.connector}/${s.entity} [${s.name}]`;
      covered.add(`${s.connector}/${s.entity}`);
      if (!entity) {
        out.push(`${where}: entity missing from the spec`);
        continue;
      }
      const spec = new Map((entity.searchableFields ?? []).map((f) => [f.name, f]));
      for (const f of s.fields) {
        const c = spec.get(f.name);
        if (!c) out.push(`${where}/${f.name}: seed lists the searchable field (${f.type}), spec does not have it`);
        else {
          if (normUnion(f.type) !== normUnion(c.type)) out.push(`${where}/${f.name}: type — seed says ${f.type}, spec says ${c.type}`);
          if (f.enum && show(f.enum) !== show(c.enum)) out.push(`${where}/${f.name}: enum — seed says ${show(f.enum)}, spec says ${show(c.enum)}`);
        }
      }
      const seedNames = new Set(s.fields.map((f) => f.name));
      for (const c of spec.values()) if (!seedNames.has(c.name)) out.push(`${where}/${c.name}: spec has the searchable field (${c.type}), seed does not list it`);
    }
    // No searchable fields in the spec that the seeds do not write out.
    for (const c of cat.connectors)
      for (const e of c.entities)
        if ((e.searchableFields?.length ?? 0) > 0 && !covered.has(`${c.id}/${e.name}`)) out.push(`${c.id}/${e.name}: spec lists ${e.searchableFields!.length} searchable fields, seed lists none`);
    console.log(`seed cross-check: ${searchables.length} searchable lists, ${searchables.reduce((n, s) => n + s.fields.length, 0)} searchable fields compared`);
    expect(out, `${out.length} mismatch(es):\n${out.join('\n')}`).toEqual([]);
  });
});
