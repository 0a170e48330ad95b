#!/usr/bin/env node
// Runs the CLI from a build of itself (bin/cli-build.mjs: rebuilt when the sources change), else from source via tsx.
import { loadCli } from './cli-build.mjs';

const { main } = await loadCli();
process.exitCode = await main(process.argv.slice(2));
