/**
 * Every command, in the order `connector-codegen --help` lists them. To add one: write
 * generator/cli/commands/<name>.ts exporting a `Command` (types.ts) and list it here.
 */
import { buildCommand } from './build.js';
import { describeCommand } from './describe.js';
import { diffCommand } from './diff.js';
import { generateCommand } from './generate.js';
import { mcpCommand } from './mcp.js';
import { mockCommand } from './mock.js';
import { openapiCommand } from './openapi.js';
import { publishCommand } from './publish.js';
import { releaseCommand } from './release.js';
import type { Command } from './types.js';
import { validateCommand } from './validate.js';

/** The commands of connector-codegen. */
export const COMMANDS: Command[] = [validateCommand, describeCommand, generateCommand, buildCommand, publishCommand, mockCommand, diffCommand, releaseCommand, openapiCommand, mcpCommand];
