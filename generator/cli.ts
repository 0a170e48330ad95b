/**
 * connector-codegen command line: validate, describe, generate.
 * Bad input gets located diagnostics and exit code 1; internal failures print one line (set
 * CONNECTOR_CODEGEN_DEBUG=1 for the stack).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatDiagnostic, SpecError } from './diagnostics.js';
import { formatTimings, type Timings } from './timings.js';

// Commands import what they need when they run: a no-op `generate` must not pay for loading yaml, ajv or TypeScript.
const readSpec = async (...args: Parameters<typeof import('./spec.js').readSpec>) => (await import('./spec.js')).readSpec(...args);

const USAGE = `Usage: connector-codegen <command> [options]

Commands:
  validate              Check spec/ against the meta-schema and the semantic rules; print every problem.
  describe [--json]     Print the spec as a catalogue (--json: the machine-readable inventory).
  generate              Validate and regenerate everything under generated/.
      --check           Write nothing; exit 1 and name each out-of-date file.
      --timings         Print each phase's time.
      --out DIR         Output directory (default: generated).

Options for every command:
  --spec DIR            Spec directory (default: spec).
  -h, --help            Show this help.`;

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        spec: { type: 'string', default: 'spec' },
        out: { type: 'string', default: 'generated' },
        json: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
        timings: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`connector-codegen: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const specDir = path.resolve(values.spec);
  try {
    switch (command) {
      case 'validate': {
        const { ir, warnings } = await readSpec(specDir);
        for (const w of warnings) process.stderr.write(`${formatDiagnostic(w)}\n`);
        const pairs = ir.connectors.reduce((n, c) => n + c.entities.reduce((m, e) => m + e.actions.length, 0), 0);
        process.stdout.write(`spec is valid: ${ir.connectors.length} connectors, ${pairs} entity-action pairs${warnings.length ? `, ${warnings.length} warnings` : ''}\n`);
        return 0;
      }
      case 'describe': {
        const [{ ir }, { buildCatalogue, describeText }, { stableJson }] = await Promise.all([readSpec(specDir), import('./describe.js'), import('./stable-json.js')]);
        process.stdout.write(values.json ? stableJson(buildCatalogue(ir)) : `${describeText(ir)}\n`);
        return 0;
      }
      case 'generate': {
        const timings: Timings | undefined = values.timings ? [] : undefined;
        const { generate } = await import('./generate.js');
        const result = await generate({ specDir, outDir: path.resolve(values.out), check: values.check, timings });
        if (timings) process.stderr.write(`${formatTimings(timings)}\n`);
        if (values.check) {
          if (result.outOfDate.length === 0) {
            process.stdout.write(`${values.out}/ is up to date (${result.fileCount} files)\n`);
            return 0;
          }
          process.stderr.write(`${values.out}/ is out of date; run npm run generate:\n${result.outOfDate.map((f) => `  ${f}`).join('\n')}\n`);
          return 1;
        }
        process.stdout.write(`generated ${result.fileCount} files into ${values.out}/ (${result.written} written, ${result.removed} removed)\n`);
        return 0;
      }
      default:
        process.stderr.write(`connector-codegen: unknown command '${command}'\n\n${USAGE}\n`);
        return 2;
    }
  } catch (error) {
    if (error instanceof SpecError) {
      for (const d of error.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
      const errors = error.diagnostics.filter((d) => d.severity === 'error').length;
      process.stderr.write(`\n${errors} error${errors === 1 ? '' : 's'} in the spec; nothing was written.\n`);
      return 1;
    }
    if (process.env.CONNECTOR_CODEGEN_DEBUG) throw error;
    process.stderr.write(`connector-codegen: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
