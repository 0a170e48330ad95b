#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx compiles generator/*.ts on the fly, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../generator/cli.ts');
process.exitCode = await main(process.argv.slice(2));
