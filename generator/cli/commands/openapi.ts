/**
 * `connector-codegen openapi [--connector ID] [--out FILE|DIR]`: the OpenAPI 3.1 export, one document per connector.
 * With --connector, that connector's document (printed, or written to FILE); without, the index of the documents
 * (printed), or every document and the index (written into DIR).
 */
// Synchronous (a few files): node:fs/promises would load with the CLI's start for every command.
import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../../lib/display-path.js';
import { didYouMean } from '../../lib/suggest.js';
import { UsageError } from '../args.js';
import type { Command } from './types.js';

/**
 * Writes every file beside its target first and renames them into place after, so a failure leaves no half-export and
 * no temporary file. A target that is a link is written through (the file it names is replaced, the link stays); one
 * that is no regular file (a FIFO, `>(jq .)`, a device) is written to as it is, as the shell's `>` does.
 */
function writeAll(files: Map<string, string>): void {
  const temps: [string, string][] = [];
  let writing: string | undefined;
  try {
    for (const [given, text] of files) {
      writing = given;
      const seen = statSync(given, { throwIfNoEntry: false });
      if (seen && !seen.isFile()) {
        writeFileSync(given, text);
        continue;
      }
      const file = seen && lstatSync(given).isSymbolicLink() ? realpathSync(given) : given;
      mkdirSync(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      temps.push([temp, file]);
      writeFileSync(temp, text);
    }
    for (const [temp, file] of temps) renameSync(temp, file);
  } catch (error) {
    for (const [temp] of temps) rmSync(temp, { force: true });
    // A write that fails (ENOSPC) names no file: the message names the one written (cli/system-errors.ts).
    const failed = error as NodeJS.ErrnoException;
    if (failed.syscall === 'write' && failed.path === undefined && writing !== undefined) failed.path = writing;
    throw error;
  }
}

/** Whether `file` is a directory; undefined when nothing can be seen there. */
function isDirectory(file: string): boolean | undefined {
  try {
    return statSync(file).isDirectory();
  } catch {
    return undefined;
  }
}


/** The openapi command. */
export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'The OpenAPI 3.1 export: one document per connector, with the service\'s real paths.',
  description: 'Without options it prints the index of the documents. Each document routes: validating proxies, gateways\nand contract testers route its calls by path.',
  options: {
    connector: { type: 'string', value: 'ID', description: "Print that connector's document (with --out FILE: write it to FILE)." },
    out: { type: 'string', value: 'FILE|DIR', description: 'With --connector: the document\'s file. Without: a directory for every document\n(<id>.json) and index.json.' },
  },
  examples: [
    { command: 'openapi --connector payments > payments.json', description: 'The payments document on stdout.' },
    { command: 'openapi --out openapi/', description: 'Every document and the index, written into openapi/.' },
  ],
  writes: (values) => values.out !== undefined,
  async run(values, _positionals, io, context) {
    const [{ readSpec }, { buildOpenApi, openApiJson }, { documentFile, INDEX_FILE, openApiIndexJson }] = await Promise.all([
      import('../../spec/read.js'),
      import('../../emitters/openapi/document.js'),
      import('../../emitters/openapi/export-index.js'),
    ]);
    const { ir } = await readSpec(context.config().specDir);
    const out = typeof values.out === 'string' ? path.resolve(values.out) : undefined;
    if (typeof values.connector === 'string') {
      const connector = ir.connectors.find((c) => c.id === values.connector);
      if (!connector) {
        const ids = ir.connectors.map((c) => c.id);
        throw new UsageError(`option '--connector': unknown connector '${values.connector}'${didYouMean(values.connector, ids)} (connectors: ${ids.join(', ')})`, 'openapi');
      }
      const json = openApiJson(buildOpenApi(ir, connector));
      if (!out) {
        io.stdout(json);
        return 0;
      }
      if (isDirectory(out) === true) throw new Error(`--out ${displayPath(out)} is a directory; with --connector, --out names the document's file`);
      writeAll(new Map([[out, json]]));
      io.stderr(`wrote the OpenAPI document of ${connector.id} to ${displayPath(out)}\n`);
      return 0;
    }
    if (!out) {
      io.stdout(openApiIndexJson(ir));
      io.stderr(`connector-codegen openapi: this is the index; --connector ID prints a document, --out DIR writes them all\n`);
      return 0;
    }
    if (isDirectory(out) === false) throw new Error(`--out ${displayPath(out)} is a file; without --connector, --out names a directory for every document and the index`);
    const files = new Map(ir.connectors.map((c) => [path.join(out, documentFile(c.id)), openApiJson(buildOpenApi(ir, c))]));
    files.set(path.join(out, INDEX_FILE), openApiIndexJson(ir));
    writeAll(files);
    io.stderr(`wrote ${ir.connectors.length} OpenAPI documents and ${INDEX_FILE} to ${displayPath(out)}\n`);
    return 0;
  },
};
