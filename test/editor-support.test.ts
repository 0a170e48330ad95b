/**
 * Spec authors get completion and errors while typing: every spec file names its meta-schema in a
 * `yaml-language-server` modeline, the path resolves from the file to the schema the loader validates it against, and
 * that schema (as an editor applies it to the file) accepts the spec and flags a misspelt key where it is written.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';

const repo = path.resolve(import.meta.dirname, '..');
const spec = path.join(repo, 'spec');
const MODELINE = /^# yaml-language-server: \$schema=(\S+)\n/;

async function specFiles(): Promise<{ file: string; kind: 'service' | 'connector' }[]> {
  const connectors = (await readdir(path.join(spec, 'connectors'))).filter((n) => n.endsWith('.yaml')).sort();
  return [{ file: path.join(spec, 'service.yaml'), kind: 'service' }, ...connectors.map((n) => ({ file: path.join(spec, 'connectors', n), kind: 'connector' as const }))];
}

/** The schema a file's modeline names, as an editor resolves it (relative to the file). */
async function modelineSchema(file: string): Promise<{ path: string; schema: { $id: string } }> {
  const match = MODELINE.exec(await readFile(file, 'utf8'));
  if (!match) throw new Error(`${path.relative(repo, file)} has no yaml-language-server modeline on its first line`);
  const schemaPath = path.resolve(path.dirname(file), match[1]!);
  return { path: schemaPath, schema: JSON.parse(await readFile(schemaPath, 'utf8')) };
}

describe('editor support for spec authors', () => {
  test('every spec file starts with a modeline naming the meta-schema it is validated against', async () => {
    for (const { file, kind } of await specFiles()) {
      const { path: schemaPath } = await modelineSchema(file);
      expect(path.relative(repo, schemaPath), path.relative(repo, file)).toBe(`generator/spec/schema/${kind}.schema.json`);
    }
  });

  test('the named schema accepts every spec file, and flags a misspelt key (what the editor shows while typing)', async () => {
    // The service schema refers to the connector schema beside it (relative $ref): an editor resolves it next to the file.
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addSchema(JSON.parse(await readFile(path.join(repo, 'generator/spec/schema/connector.schema.json'), 'utf8')));
    for (const { file } of await specFiles()) {
      const { schema } = await modelineSchema(file);
      const validate = ajv.getSchema(schema.$id) ?? ajv.compile(schema);
      expect(validate).toBeTypeOf('function');
      const data = parse(await readFile(file, 'utf8'));
      expect(validate(data), `${path.relative(repo, file)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      if (path.basename(file) === 'payments.yaml') {
        const misspelt = { ...data, entities: { ...data.entities, customers: { ...data.entities.customers, recrod: 'customer' } } };
        expect(validate(misspelt)).toBe(false);
        expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '/entities/customers', keyword: 'additionalProperties', params: { additionalProperty: 'recrod' } }));
      }
    }
  });

  test('the spec README tells authors about it', async () => {
    expect(await readFile(path.join(spec, 'README.md'), 'utf8')).toMatch(/yaml-language-server/);
  });
});
