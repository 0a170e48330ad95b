/** `connector-codegen validate`: every problem of spec/ at once, located. */
import path from 'node:path';
import { formatDiagnostic } from '../../spec/diagnostics.js';
import type { Command } from './types.js';

/** The validate command. */
export const validateCommand: Command = {
  name: 'validate',
  usage: ['validate              Check spec/ against the meta-schema and the semantic rules; print every problem.'],
  options: {},
  async run(values, _positionals, io, context) {
    const { readSpec } = await import('../../spec/read.js');
    const { ir, warnings } = await readSpec(context.config().specDir);
    for (const w of warnings) io.stderr(`${formatDiagnostic(w)}\n`);
    const pairs = ir.connectors.reduce((n, c) => n + c.entities.reduce((m, e) => m + e.actions.length, 0), 0);
    io.stdout(`spec is valid: ${ir.connectors.length} connectors, ${pairs} entity-action pairs${warnings.length ? `, ${warnings.length} warnings` : ''}\n`);
    return 0;
  },
};
