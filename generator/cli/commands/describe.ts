/** `connector-codegen describe [--json]`: the spec as a catalogue. */
import path from 'node:path';
import type { Command } from './types.js';

/** The describe command. */
export const describeCommand: Command = {
  name: 'describe',
  usage: ['describe [--json]     Print the spec as a catalogue (--json: the machine-readable inventory).'],
  options: { json: { type: 'boolean', default: false } },
  async run(values, _positionals, io, context) {
    const [{ readSpec }, { buildCatalogue, describeText }, { stableJson }] = await Promise.all([
      import('../../spec/read.js'),
      import('../../emitters/catalogue/describe.js'),
      import('../../lib/stable-json.js'),
    ]);
    const { ir } = await readSpec(context.config().specDir);
    io.stdout(values.json ? stableJson(buildCatalogue(ir)) : `${describeText(ir)}\n`);
    return 0;
  },
};
