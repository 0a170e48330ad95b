#!/usr/bin/env node
// Runs the CLI from a build of itself (bin/cli-build.mjs: rebuilt when the sources change), else from source via tsx.
import './v8-tuning.mjs'; // first: V8 flags apply to code compiled after them
import { runCli } from './cli-build.mjs';

// A reader that goes away (`connector-codegen describe --json | head`) ends the run quietly, as in other CLI tools.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
process.on('SIGPIPE', () => process.exit(process.exitCode ?? 0));

process.exitCode = await runCli(process.argv.slice(2));
