/** `connector-codegen describe [--json]`: the spec as a catalogue. */
import type { Command } from './types.js';

/** The describe command. */
export const describeCommand: Command = {
  name: 'describe',
  summary: 'Print the spec as a catalogue (--json: the machine-readable inventory).',
  description:
    'The text form prints one line per connector with its entities and actions. The JSON form lists every connector,\nentity, action, param (type, required, enum, default, bounds), result field, searchable field, paging scheme,\nauth_config and assumption.',
  options: { json: { type: 'boolean', description: 'Print the catalogue as JSON.' } },
  examples: [
    { command: 'describe', description: 'One line per connector: entities and actions.' },
    { command: "describe --json | jq '.totals'", description: 'Counts of connectors, entities and entity-action pairs.' },
  ],
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
