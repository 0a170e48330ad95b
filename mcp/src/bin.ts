#!/usr/bin/env node
/** The server's executable: `npx <package>` with flags and CONNECTOR_TOKEN in the environment. It imports the package's main entry only. */
import { connectors, identity, main, redactToken } from './index.js';

const token = process.env['CONNECTOR_TOKEN'];
const safe = (text: string) => redactToken(text, token);
main(identity, connectors, process.argv.slice(2), {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(safe(t)),
  env: process.env,
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${identity.name}: ${safe(error instanceof Error ? error.message : String(error))}\n`);
    process.exit(1);
  },
);
