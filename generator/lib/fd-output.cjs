// The CLI's own output, written to its file descriptors when they are pipes or files. Node creates process.stdout and
// process.stderr on first use, and for a pipe that loads its net and stream modules (~25 of them) and sets up a socket:
// ~9 ms of a one-connector `generate` (~250 ms), for one summary line. So output to a pipe or a file is written with
// fs.writeSync, as Node itself writes to files (and, on Linux, to pipes: synchronously); output to a terminal goes
// through the stream as before (the terminal check needs the tty module, which loads the same modules anyway).
// Plain JavaScript: bin/cli-build.cjs uses it before any TypeScript can load (the no-op answer), as does the CLI.
'use strict';
const { fstatSync, statSync, writeSync } = require('node:fs');

/** Waited on for 1 ms while a non-blocking pipe is full. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Whether `fd` is a terminal. Only a character device can be one: a pipe, a socket or a file is told by one fstat,
 * /dev/null (`2>/dev/null`) by one stat more, and the tty module is asked only about another character device.
 * @param {number} fd
 * @returns {boolean}
 */
function isTerminal(fd) {
  try {
    const info = fstatSync(fd);
    if (!info.isCharacterDevice() || info.rdev === nullDevice()) return false;
  } catch {
    return false; // closed: nothing is written there anyway
  }
  return require('node:tty').isatty(fd);
}

/** The device number of /dev/null, or undefined where there is none. */
function nullDevice() {
  try {
    return statSync('/dev/null').rdev;
  } catch {
    return undefined;
  }
}

/**
 * Writes `text` to `fd` whole: a partial write goes on, a full non-blocking pipe is waited for, a reader gone (EPIPE)
 * ends the run quietly as in other CLI tools (`connector-codegen describe --json | head`), and a closed descriptor
 * takes nothing.
 * @param {number} fd
 * @param {string} text
 */
function writeAll(fd, text) {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (error) {
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      if (code === 'EAGAIN') Atomics.wait(PAUSE, 0, 0, 1);
      else if (code === 'EPIPE') endRun();
      else if (code === 'EBADF') return;
      else cannotWrite(fd, /** @type {NodeJS.ErrnoException} */ (error));
    }
  }
}

/** Why a write failed, in words, for the errors a full or failing disk gives. */
const WRITE_FAILURES = /** @type {Record<string, string>} */ ({
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'the file is too large',
  EIO: 'an input/output error',
});

/**
 * Ends the run with exit code 1 when its output cannot be written (`> /dev/full`, a full disk): one line on standard
 * error says so, when that is not what failed; never a stack trace.
 * @param {number} fd
 * @param {NodeJS.ErrnoException} error
 * @returns {never}
 */
function cannotWrite(fd, error) {
  const why = (error.code && WRITE_FAILURES[error.code]) ?? error.message;
  if (fd !== 2) {
    try {
      writeSync(2, `connector-codegen: cannot write to ${fd === 1 ? 'standard output' : `descriptor ${fd}`}: ${why}${error.code ? ` (${error.code})` : ''}\n`);
    } catch {
      // standard error fails too: the exit code alone tells
    }
  }
  process.exit(1);
}

/**
 * A writer of text to standard output (1) or standard error (2): through the stream for a terminal, else straight to
 * the descriptor (writeAll). Decided on the first write, so a run that writes nothing looks at nothing.
 * @param {1 | 2} fd
 * @returns {(text: string) => void}
 */
function outputTo(fd) {
  /** @type {((text: string) => void) | undefined} */
  let write;
  return (text) => {
    if (!write) {
      if (isTerminal(fd)) {
        const stream = fd === 1 ? process.stdout : process.stderr;
        write = (t) => void stream.write(t);
      } else write = (t) => writeAll(fd, t);
    }
    write(text);
  };
}

/** Ends the run with the exit code it has so far: its reader went away, so nothing more can be shown. */
function endRun() {
  process.exit(process.exitCode ?? 0);
}

/**
 * Makes a reader that goes away end the run quietly wherever the run writes: writeAll does so for a descriptor; a
 * stream (a terminal's, the MCP server's) gets an error handler when Node creates it, on first use — creating the
 * streams here would load Node's net and stream modules, which most runs never need.
 */
function endQuietlyWhenReaderGoes() {
  /** @param {NodeJS.ErrnoException} error */
  const onStreamError = (error) => {
    if (error.code === 'EPIPE') endRun();
    throw error;
  };
  for (const name of /** @type {const} */ (['stdout', 'stderr'])) {
    const { get, enumerable } = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(process, name));
    let handled = false;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable,
      get() {
        const stream = get?.call(process);
        if (!handled) stream.on('error', onStreamError);
        handled = true;
        return stream;
      },
    });
  }
  process.on('SIGPIPE', endRun);
}

module.exports = { endQuietlyWhenReaderGoes, isTerminal, outputTo, writeAll };
