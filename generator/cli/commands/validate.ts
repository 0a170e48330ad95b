/** `connector-codegen validate`: every problem of the spec at once, located. */
import { DIAGNOSTIC_FORMATS, renderGithub, renderJson, renderText, summaryLine, type DiagnosticFormat } from '../report.js';
import { SpecError } from '../../spec/diagnostics.js';
import type { Command } from './types.js';

/** The validate command. */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'Check the spec against the meta-schemas and the semantic rules; print every problem.',
  description:
    'Each problem is printed as file:line:col severity CODE message, with the offending line, a hint, and the\nproblems it causes elsewhere folded under it. Exit 1 when there is an error.',
  options: {
    format: { type: 'string', value: 'F', default: 'text', choices: DIAGNOSTIC_FORMATS, description: 'text (for people), json (for tools) or github (workflow annotations).' },
  },
  examples: [
    { command: 'validate', description: 'Check spec/ (or the spec the config names).' },
    { command: 'validate --spec path/to/spec --format json', description: 'Every diagnostic as one JSON document on stdout.' },
    { command: 'validate --format github', description: 'In a GitHub workflow: problems show on the pull request diff.' },
  ],
  async run(values, _positionals, io, context) {
    const format = values.format as DiagnosticFormat;
    const { readSpec } = await import('../../spec/read.js');
    const style = { color: io.color ?? false, frames: io.pretty ?? false };
    let result;
    try {
      const config = context.config();
      result = await readSpec(config.specDir);
      // The config's connector selection names connectors of this spec: generate refuses it otherwise, so validate does.
      const { checkConnectorSelection } = await import('../../config/config.js');
      checkConnectorSelection(config, result.ir.connectors.map((c) => c.id));
    } catch (error) {
      if (!(error instanceof SpecError) || format === 'text') throw error;
      io.stdout(format === 'json' ? renderJson(error.diagnostics) : renderGithub(error.diagnostics));
      io.stderr(`${summaryLine(error.diagnostics, 'spec')}\n`);
      return 1;
    }
    const { ir, warnings } = result;
    const pairs = ir.connectors.reduce((n, c) => n + c.entities.reduce((m, e) => m + e.actions.length, 0), 0);
    if (format === 'json') {
      io.stdout(renderJson(warnings, { connectors: ir.connectors.length, pairs }));
      return 0;
    }
    if (format === 'github') io.stdout(renderGithub(warnings));
    else io.stderr(renderText(warnings, style));
    io.stdout(`spec is valid: ${ir.connectors.length} connectors, ${pairs} entity-action pairs${warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''}\n`);
    return 0;
  },
};
