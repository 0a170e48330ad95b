/**
 * Config texts that passed the schema check, remembered in the cache directory with the size and modification time of
 * the validator that passed them (validator.generated.ts). The CLI's fast no-op answer (cli/noop.ts) runs without the
 * validator (52 KB of code to load) when the config's exact text is remembered; any other text goes the normal way
 * (load.ts), which validates it and reports its problems.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDirOf } from '../cache/dir.js';
import { makeDirSync } from '../lib/make-dir.js';

/** How many texts are remembered (the most recent first): a project has one config, a few when switching branches. */
const KEPT = 8;

/** What the memo file holds. */
interface Memo {
  /** Size and modification time of the validator that passed the texts. */
  validator: string;
  /** Texts that passed, most recent first. */
  texts: string[];
}

const validatorFile = fileURLToPath(new URL('./validator.generated.ts', import.meta.url));

function memoFile(): string {
  return path.join(cacheDirOf({}), 'valid-configs.json');
}

/** The validator's size and time: the memo holds only for the validator that filled it. */
function validatorStamp(): string | undefined {
  const s = statSync(validatorFile, { throwIfNoEntry: false });
  return s && `${s.size}:${s.mtimeMs}`;
}

function readMemo(): Memo | undefined {
  try {
    const memo = JSON.parse(readFileSync(memoFile(), 'utf8')) as Memo;
    return typeof memo.validator === 'string' && Array.isArray(memo.texts) ? memo : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `text` passed the schema check of the current validator before. */
export function isKnownValidConfig(text: string): boolean {
  const validator = validatorStamp();
  const memo = readMemo();
  return validator !== undefined && memo?.validator === validator && memo.texts.includes(text);
}

/** Remembers that `text` passed the schema check (best effort: a memo that cannot be written costs the fast answer only). */
export function rememberValidConfig(text: string): void {
  const validator = validatorStamp();
  if (validator === undefined) return;
  const memo = readMemo();
  const known = memo?.validator === validator ? memo.texts : [];
  if (known[0] === text) return;
  const file = memoFile();
  try {
    makeDirSync(path.dirname(file));
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ validator, texts: [text, ...known.filter((t) => t !== text)].slice(0, KEPT) } satisfies Memo));
    renameSync(temp, file);
  } catch {
    // ignored on purpose: see above
  }
}
