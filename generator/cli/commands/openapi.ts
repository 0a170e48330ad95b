/** `connector-codegen openapi [--out FILE]`: the OpenAPI 3.1 document of the service, printed or written. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from './types.js';

/** The openapi command. */
export const openapiCommand: Command = {
  name: 'openapi',
  usage: ['openapi [--out FILE]   Print the OpenAPI 3.1 document of the service (--out: write it to FILE).'],
  options: { out: { type: 'string' } },
  async run(values, _positionals, io, context) {
    const [{ readSpec }, { openApiJson }] = await Promise.all([import('../../spec/read.js'), import('../../emitters/openapi/document.js')]);
    const { ir } = await readSpec(context.config().specDir);
    const json = openApiJson(ir);
    if (typeof values.out !== 'string') {
      io.stdout(json);
      return 0;
    }
    const file = path.resolve(values.out);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, json);
    io.stderr(`wrote the OpenAPI document to ${path.relative(process.cwd(), file) || file}\n`);
    return 0;
  },
};
