/**
 * A tiny, valid spec (one connector, `shop`) written to a temp directory, for tests that break one thing at a
 * time and assert the exact diagnostic. The service file is the real spec/service.yaml trimmed to `shop`.
 */
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { formatDiagnostic, SpecError, type Diagnostic } from '../../generator/spec/diagnostics.js';
import { readSpec } from '../../generator/spec/read.js';

/** The connector file of the mini spec; line numbers in tests refer to this text. */
export const SHOP_YAML = `id: shop
title: Shop
seed: test
description: A tiny connector for diagnostics tests.
defaults:
  pagination: cursor
  meta: list
pagination:
  cursor:
    style: cursor
    param: starting_after
    sizeParam: limit
    next:
      from: last_record
      path: id
    stop:
      - when: metaFalse
        key: has_more
meta:
  list:
    fields:
      has_more: boolean
params:
  limit:
    type: integer
    minimum: 1
    maximum: 100
    default: 10
records:
  customer:
    fields:
      id: string
      email: string|null
entities:
  customers:
    record: customer
    searchableFields:
      fields:
        email: string
    actions:
      list:
        params:
          limit: common
          starting_after: string
      get:
        params:
          id:
            type: string
            required: true
      create:
        unspecifiedParams: not shown
      search: {}
`;

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The real service.yaml trimmed to the `shop` connector, as text. */
export async function miniServiceYaml(): Promise<string> {
  const service = parse(await readFile(path.join(repoRoot, 'spec/service.yaml'), 'utf8'));
  service.connectors = ['shop'];
  service.writeActions = { shop: { customers: ['create'] } };
  service.authentication.connectors = {};
  service.limits = [
    {
      where: 'shop list, parameter limit',
      limit: '1 to 100; default 10',
      appliesTo: { connector: 'shop', actions: ['list'], param: 'limit' },
      expect: { minimum: 1, maximum: 100, default: 10 },
    },
  ];
  return stringify(service, { lineWidth: 0 });
}

/** Writes a mini spec (optionally with other files) and returns its directory. */
export async function writeMiniSpec(files: { shop?: string; service?: string; extra?: Record<string, string> } = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-spec-'));
  await mkdir(path.join(dir, 'connectors'));
  await writeFile(path.join(dir, 'service.yaml'), files.service ?? (await miniServiceYaml()));
  await writeFile(path.join(dir, 'connectors/shop.yaml'), files.shop ?? SHOP_YAML);
  for (const [name, text] of Object.entries(files.extra ?? {})) await writeFile(path.join(dir, 'connectors', name), text);
  return dir;
}

/** Replaces exactly one occurrence of `from` (fails loudly when it is absent or ambiguous). */
export function edit(text: string, from: string, to: string): string {
  const first = text.indexOf(from);
  if (first < 0 || text.indexOf(from, first + 1) >= 0) throw new Error(`edit: '${from}' must occur exactly once`);
  return text.slice(0, first) + to + text.slice(first + from.length);
}

/** Loads a spec dir and returns its diagnostics formatted relative to the dir (first line of each only). */
export async function diagnosticsOf(dir: string): Promise<string[]> {
  try {
    const { warnings } = await readSpec(dir);
    return warnings.map((d) => format(dir, d));
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    return error.diagnostics.map((d) => format(dir, d));
  }
}

/** Loads a spec dir and returns its diagnostics as objects (with what was folded into each). */
export async function diagnosticObjects(dir: string): Promise<Diagnostic[]> {
  try {
    return (await readSpec(dir)).warnings;
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    return error.diagnostics;
  }
}

function format(dir: string, d: Diagnostic): string {
  return formatDiagnostic({ ...d, file: path.relative(dir, path.resolve(d.file)) }).split('\n')[0]!;
}
