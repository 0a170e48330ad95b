/** loadConfig: the project config (config.ts) with its schema check, the validator compiled from config.schema.json. */
import type { ErrorObject } from 'ajv';
import { SpecError } from '../spec/diagnostics.js';
import { resolveConfig, schemaProblems, type ConfigFile, type ConfigOverrides, type ResolvedConfig } from './config.js';
import { rememberValidConfig } from './valid-texts.js';
import { validateConfig } from './validator.generated.js';

/**
 * Reads, validates and resolves the config seen from `cwd` (config.ts resolveConfig). Throws SpecError with located
 * diagnostics. A text that passes is remembered as valid (valid-texts.ts), for the CLI's fast no-op answer.
 */
export function loadConfig(cwd: string, overrides: ConfigOverrides = {}): ResolvedConfig {
  return resolveConfig(cwd, overrides, (file, text, data) => {
    if (!validateConfig(data)) throw new SpecError(schemaProblems(file, text, (validateConfig as { errors?: ErrorObject[] }).errors ?? []));
    rememberValidConfig(text);
    return data as ConfigFile;
  });
}
