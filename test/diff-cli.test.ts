/**
 * `connector-codegen diff` as a reviewer uses it: a real edit of spec/ in a temp git repository, compared
 * with HEAD; the Markdown to paste into a PR; --fail-on exit codes; JSON valid against the published
 * schema; GitHub annotations; byte-identical output across runs; the checks table in sync with its docs.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseDocument } from 'yaml';
import { main } from '../generator/cli/main.js';
import { checksMarkdown, CHECKS } from '../generator/diff/checks.js';
import { compareSpecs } from '../generator/diff/compare.js';
import { formatJson } from '../generator/diff/format-json.js';
import { render } from '../generator/diff/formats.js';
import { runDiff } from '../generator/diff/run.js';
import { sortChanges } from '../generator/diff/model.js';
import { verdicts } from '../generator/diff/semver.js';
import { readSpec } from '../generator/spec/read.js';
import { buildSpec, loadCorpus, removeBuiltSpecs } from './fixtures/diff-corpus/harness.js';
import { realSpecDir } from './helpers/spec-copy.js';

const repo = path.resolve(import.meta.dirname, '..');
const bin = path.join(repo, 'bin/connector-codegen.js');
const exec = promisify(execFile);
const schema = JSON.parse(await readFile(path.join(repo, 'generator/diff/diff-output.schema.json'), 'utf8'));
const validateOutput = new Ajv({ allErrors: true, strict: true }).compile(schema);

/** A temp git repository holding a copy of spec/ committed as HEAD. */
let gitRepo: string;
const paymentsFile = () => path.join(gitRepo, 'spec/connectors/payments.yaml');
let committedPayments: string;

async function git(args: string[]): Promise<void> {
  await exec('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: gitRepo });
}

/** Rewrites payments.yaml in the temp repo: the committed text with `edits` (path → value; undefined deletes). */
async function editPayments(edits: [string, unknown][]): Promise<string> {
  const doc = parseDocument(committedPayments);
  for (const [at, value] of edits) {
    if (value === undefined) doc.deleteIn(at.split('/'));
    else doc.setIn(at.split('/'), doc.createNode(value));
  }
  const text = doc.toString({ lineWidth: 0 });
  await writeFile(paymentsFile(), text);
  return text;
}

/** 1-based line of the last of `needles`, each searched for after the line of the one before. */
function lineOf(text: string, ...needles: string[]): number {
  const lines = text.split('\n');
  let at = -1;
  for (const needle of needles) {
    at = lines.findIndex((l, i) => i > at && l.includes(needle));
    if (at < 0) throw new Error(`'${needle}' not found`);
  }
  return at + 1;
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { cwd: gitRepo, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The CLI in-process, with its output captured. */
async function cliInProcess(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: () => {} });
  return { code, stdout };
}

const BREAKING_EDIT: [string, unknown][] = [
  ['entities/customers/actions/list/params/region', { type: 'string', required: true }],
  ['entities/customers/actions/list/params/email/deprecated', 'Search by email instead.'],
  ['records/customer/fields/nickname', 'string|null'],
];

beforeAll(async () => {
  gitRepo = await mkdtemp(path.join(os.tmpdir(), 'codegen-diff-repo-'));
  await cp(realSpecDir, path.join(gitRepo, 'spec'), { recursive: true });
  await git(['init', '-q']);
  await git(['add', 'spec']);
  await git(['commit', '-q', '-m', 'spec']);
  committedPayments = await readFile(paymentsFile(), 'utf8');
});

afterAll(async () => {
  await removeBuiltSpecs();
  if (gitRepo) await rm(gitRepo, { recursive: true, force: true });
});

describe('a real edit of spec/, compared with HEAD', () => {
  test('--format markdown prints the PR comment: a summary table per package, then the details, located', async () => {
    const text = await editPayments(BREAKING_EDIT);
    const r = await cli(['diff', 'HEAD', '--format', 'markdown']);
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md.startsWith('## Spec diff\n\n**1 breaking change** from `HEAD` to `the working tree` (1 breaking, 1 warning, 1 non-breaking).\n')).toBe(true);
    expect(md).toContain('| package | bump | version | breaking | warnings | non-breaking |\n|---|---|---|--:|--:|--:|\n| `@connector-sdk/payments` | **major** | 0.1.0 → 0.2.0 | 1 | 1 | 1 |\n');
    expect(md).toContain('### `payments`\n\n| severity | check | where | change | location |\n|---|---|---|---|---|\n');
    const rows = md.split('\n').filter((l) => l.startsWith('| 🔴') || l.startsWith('| 🟠') || l.startsWith('| 🟢'));
    expect(rows).toEqual([
      `| 🔴 breaking | \`param-required-added\` | customers.list | param \`region\` was added as required | \`spec/connectors/payments.yaml:${lineOf(text, 'region:')}\` |`,
      `| 🟠 warning | \`param-deprecated\` | customers.list | param \`email\` was deprecated: Search by email instead. | \`spec/connectors/payments.yaml:${lineOf(text, '  customers:', '      list:', ' email:')}\` |`,
      // A record is shared by the actions returning it: the change names them.
      `| 🟢 non-breaking | \`response-field-added\` | 5 actions: customers.list, customers.get, customers.create, customers.update, +1 more | record \`customer\` field \`nickname\` was added | \`spec/connectors/payments.yaml:${lineOf(text, 'nickname:')}\` |`,
    ]);
  });

  test('--fail-on breaking exits 1 when something breaks, and 0 when only non-breaking things change', async () => {
    await editPayments(BREAKING_EDIT);
    const breaking = await cli(['diff', 'HEAD', '--fail-on', 'breaking']);
    expect(breaking.code).toBe(1);
    expect(breaking.stderr).toContain('1 change at or above --fail-on breaking');
    expect(breaking.stdout).toContain('[breaking] param-required-added  customers.list: param `region` was added as required');

    await editPayments([['records/customer/fields/nickname', 'string|null'], ['entities/customers/actions/list/params/expand', 'string']]);
    expect((await cli(['diff', 'HEAD', '--fail-on', 'breaking'])).code).toBe(0);
    expect((await cli(['diff', 'HEAD', '--fail-on', 'warning'])).code).toBe(0);
  });

  test('--fail-on warning also fails on warnings; --fail-on breaking does not', async () => {
    await editPayments([['entities/customers/actions/list/params/email/deprecated', 'Search by email instead.']]);
    expect((await cli(['diff', 'HEAD', '--fail-on', 'breaking'])).code).toBe(0);
    expect((await cli(['diff', 'HEAD', '--fail-on', 'warning'])).code).toBe(1);
  });

  test('no edit: no change, exit 0 even with --fail-on warning', async () => {
    await writeFile(paymentsFile(), committedPayments);
    const r = await cli(['diff', 'HEAD', '--fail-on', 'warning']);
    expect(r).toMatchObject({ code: 0, stdout: 'No semantic changes from HEAD to the working tree.\n' });
  });

  test('--format github prints one workflow annotation per change, at file and line', async () => {
    const text = await editPayments(BREAKING_EDIT);
    const r = await cli(['diff', 'HEAD', '--format', 'github']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`::error file=spec/connectors/payments.yaml,line=${lineOf(text, 'region:')},title=param-required-added (payments customers.list)::param \`region\` was added as required`);
    expect(lines[1]).toMatch(/^::warning file=spec\/connectors\/payments\.yaml,line=\d+,title=param-deprecated \(payments customers\.list\)::/);
    expect(lines[2]).toMatch(/^::notice file=spec\/connectors\/payments\.yaml,line=\d+,title=response-field-added \(payments 5 actions%3A customers\.list%2C customers\.get%2C \+3 more\)::/);
  });

  test('--format github names the head spec as the checkout has it: a spec at api/spec is annotated there', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'codegen-diff-nested-'));
    await cp(realSpecDir, path.join(project, 'base'), { recursive: true });
    await cp(realSpecDir, path.join(project, 'api/spec'), { recursive: true });
    const crm = path.join(project, 'api/spec/connectors/crm.yaml');
    await writeFile(crm, (await readFile(crm, 'utf8')).replace(/^title: (.*)$/m, 'title: $1 (renamed)'));
    const { stdout } = await exec(process.execPath, [bin, 'diff', 'base', 'api/spec', '--format', 'github'], { cwd: project });
    expect(stdout).toMatch(/^::notice file=api\/spec\/connectors\/crm\.yaml,line=\d+,title=docs-changed \(crm\)::/);
    await rm(project, { recursive: true, force: true });
  });

  test('the base can be a directory as well as a git ref; bad sides are clear errors', async () => {
    await editPayments(BREAKING_EDIT);
    const fromDir = await cli(['diff', realSpecDir, 'spec', '--format', 'json']);
    expect(JSON.parse(fromDir.stdout).summary).toEqual({ changes: 3, breaking: 1, warning: 1, 'non-breaking': 1 });
    const bad = await cli(['diff', 'no-such-ref']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'no-such-ref' is neither a directory nor a git ref");
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    expect((await cli(['diff', 'HEAD', '--format', 'yaml'])).code).toBe(2);
    expect((await cli(['diff', 'HEAD', '--fail-on', 'never'])).code).toBe(2);
  });
});

describe('determinism', () => {
  test('10 runs of the diff give byte-identical output in every format, and separate processes agree', async () => {
    await editPayments(BREAKING_EDIT);
    const formats = ['text', 'markdown', 'json', 'github'] as const;
    const outputs = new Map(formats.map((f) => [f, new Set<string>()]));
    for (let i = 0; i < 10; i++) {
      // Each run loads both sides anew (HEAD materialized into a new temp directory) and renders every format.
      const result = await runDiff({ base: 'HEAD', specDir: path.join(gitRepo, 'spec') });
      for (const f of formats) outputs.get(f)!.add(render(result, f));
    }
    for (const f of formats) {
      expect(outputs.get(f)!.size, f).toBe(1);
      const [only] = outputs.get(f)!;
      expect(only!.length, f).toBeGreaterThan(50);
      if (f === 'markdown' || f === 'json') expect((await cli(['diff', 'HEAD', '--format', f])).stdout, f).toBe(only);
    }
  }, 120_000);
});

describe('json output', () => {
  test('validates against the published schema, which the output names as $schema', async () => {
    await editPayments(BREAKING_EDIT);
    const r = await cli(['diff', 'HEAD', '--format', 'json']);
    const json = JSON.parse(r.stdout);
    expect(json.$schema).toBe(schema.$id);
    expect(validateOutput(json), JSON.stringify(validateOutput.errors)).toBe(true);
    expect(json.connectors).toEqual([{ connector: 'payments', package: '@connector-sdk/payments', bump: 'major', version: { from: '0.1.0', to: '0.2.0' }, counts: { breaking: 1, warning: 1, 'non-breaking': 1 } }]);
  });

  test('every corpus change, the common contract included, validates too', async () => {
    const changes = [];
    for (const c of await loadCorpus()) {
      const [base, head] = await Promise.all([buildSpec(c.both ?? []), buildSpec([...(c.both ?? []), ...c.head])]);
      changes.push(...compareSpecs((await readSpec(base)).ir, (await readSpec(head)).ir));
    }
    const sorted = sortChanges(changes);
    const json = JSON.parse(formatJson({ base: 'base', head: 'head', changes: sorted, connectors: verdicts(sorted, () => '0.1.0', (id) => `@connector-sdk/${id}`) }));
    expect(validateOutput(json), JSON.stringify(validateOutput.errors)).toBe(true);
    const corpusIds = new Set((await loadCorpus()).flatMap((c) => c.expect.map((e) => e.id)));
    expect(new Set(json.changes.map((c: { id: string }) => c.id))).toEqual(corpusIds);
    expect(corpusIds.size).toBeGreaterThan(CHECKS.length / 2);
  }, 60_000);

  test('the schema lists exactly the check ids of the checks table', () => {
    expect(schema.properties.changes.items.properties.id.enum).toEqual(CHECKS.map((c) => c.id));
  });
});

describe('checks table', () => {
  test('generator/diff/CHECKS.md is the table rendered from checks.ts, and --list-checks prints it', async () => {
    const docs = await readFile(path.join(repo, 'generator/diff/CHECKS.md'), 'utf8');
    expect(docs).toBe(checksMarkdown());
    expect((await cliInProcess(['diff', '--list-checks'])).stdout).toBe(docs);
  });

});

describe('exit codes: 0 below --fail-on, 1 at or above, 2 usage error, 3 a side is not a valid spec', () => {
  test('a head that is not a valid spec exits 3 and names the side, with located diagnostics', async () => {
    await editPayments([['entities/customers/actions/list/colour', 'blue']]);
    const r = await cli(['diff', 'HEAD', '--fail-on', 'breaking']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^connector-codegen diff: the head side \(.*spec\) is not a valid spec: 1 error\n/);
    expect(r.stderr).toMatch(/spec\/connectors\/payments\.yaml:\d+:\d+ error SPEC002 .*unknown key 'colour'/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // In a workflow (--format github) the head's errors are annotations too, on the file and line.
    const annotated = await cli(['diff', 'HEAD', '--format', 'github']);
    expect(annotated.code).toBe(3);
    expect(annotated.stdout).toMatch(/^::error file=spec\/connectors\/payments\.yaml,line=\d+,col=\d+,title=SPEC002 .*colour/m);
  });

  test('a base ref that is not a valid spec exits 3, located in the ref; both sides broken: both reported', async () => {
    await editPayments([['entities/customers/actions/list/colour', 'blue']]);
    await git(['commit', '-q', '-am', 'broken']);
    try {
      await writeFile(paymentsFile(), committedPayments);
      const r = await cli(['diff', 'HEAD']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('connector-codegen diff: the base side (HEAD) is not a valid spec: 1 error\n');
      expect(r.stderr).toMatch(/\nHEAD:spec\/connectors\/payments\.yaml:\d+:\d+ error SPEC002 \[HEAD\] unknown key 'colour'/);
      await editPayments([['entities/customers/actions/get/colour', 'red']]);
      const both = await cli(['diff', 'HEAD', '--fail-on', 'warning']);
      expect(both.code).toBe(3);
      expect(both.stderr).toContain('the base side (HEAD) is not a valid spec');
      expect(both.stderr).toMatch(/the head side \(.*\) is not a valid spec/);
    } finally {
      await git(['reset', '-q', '--hard', 'HEAD~1']);
    }
  });

  test('usage errors exit 2: an unknown option, a bad ref, a broken config', async () => {
    await writeFile(paymentsFile(), committedPayments);
    expect((await cli(['diff', 'HEAD', '--colour'])).code).toBe(2);
    expect((await cli(['diff'])).code).toBe(2);
    const config = path.join(gitRepo, 'bad.config.json');
    await writeFile(config, '{ "diff": { "severity": { "no-such-check": "warning" } } }\n');
    const r = await cli(['diff', 'HEAD', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("CFG002 unknown check id 'no-such-check' in diff.severity");
  });

  test('--fail-on non-breaking fails on any change; --help documents every exit code', async () => {
    await editPayments([['records/customer/fields/nickname', 'string|null']]);
    expect((await cli(['diff', 'HEAD', '--fail-on', 'warning'])).code).toBe(0);
    expect((await cli(['diff', 'HEAD', '--fail-on', 'non-breaking'])).code).toBe(1);
    expect((await cliInProcess(['diff', '--help'])).stdout).toContain('Exit: 0 below --fail-on, 1 at or above it, 2 usage error, 3 a side is not a valid spec, 70 internal error.');
  });
});

describe('severity overrides and formatting through the real CLI', () => {
  test('a configured severity is used, shown beside its default, and decides --fail-on and the bump', async () => {
    await editPayments([['entities/customers/actions/list/params/email/deprecated', 'Search by email instead.']]);
    const config = path.join(gitRepo, 'strict.config.json');
    await writeFile(config, '{ "diff": { "severity": { "param-deprecated": "breaking" } } }\n');
    const text = await cli(['diff', 'HEAD', '--config', config, '--fail-on', 'breaking']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('Severity overrides (config diff.severity): param-deprecated → breaking.');
    expect(text.stdout).toContain('[breaking (configured; default warning)] param-deprecated  customers.list: param `email` was deprecated');
    expect(text.stdout).toContain('payments  major  0.1.0 → 0.2.0');
    const json = JSON.parse((await cli(['diff', 'HEAD', '--config', config, '--format', 'json'])).stdout);
    expect(validateOutput(json), JSON.stringify(validateOutput.errors)).toBe(true);
    expect(json.overrides).toEqual({ 'param-deprecated': 'breaking' });
    expect(json.changes[0]).toMatchObject({ id: 'param-deprecated', severity: 'breaking', defaultSeverity: 'warning', bump: 'major' });
    const md = (await cli(['diff', 'HEAD', '--config', config, '--format', 'markdown'])).stdout;
    expect(md).toContain('| 🔴 breaking (configured; default warning) | `param-deprecated` |');
  });

  test('the working tree rewritten as JSON and CRLF against HEAD: no semantic change, exit 0 on any threshold', async () => {
    const { parse } = await import('yaml');
    await writeFile(path.join(gitRepo, 'spec/connectors/payments.json'), JSON.stringify(parse(committedPayments), null, 2));
    await rm(paymentsFile());
    const service = path.join(gitRepo, 'spec/service.yaml');
    const serviceText = await readFile(service, 'utf8');
    await writeFile(service, serviceText.replace(/\n/g, '\r\n'));
    try {
      const r = await cli(['diff', 'HEAD', '--fail-on', 'non-breaking']);
      expect(r).toMatchObject({ code: 0, stdout: 'No semantic changes from HEAD to the working tree.\n' });
    } finally {
      await rm(path.join(gitRepo, 'spec/connectors/payments.json'));
      await writeFile(service, serviceText);
      await writeFile(paymentsFile(), committedPayments);
    }
  });
});
