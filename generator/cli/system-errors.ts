/**
 * What the CLI says when the operating system refuses a file operation or a port: the path (or address) and the
 * reason in words, in place of Node's `EEXIST: file already exists, mkdir '/x'` (which names the system call, not the
 * problem).
 */
import { displayPath } from '../lib/display-path.js';

/** A Node system error from a file operation: its code, the call, and the path it was given. */
interface SystemError extends Error {
  code: string;
  syscall: string;
  path: string;
  dest?: string;
}

/** What an operation was doing, by system call. */
const DOING: Record<string, string> = {
  access: 'read',
  chmod: 'change the mode of',
  copyfile: 'copy',
  lstat: 'read',
  mkdir: 'create the directory',
  mkdtemp: 'create a directory in',
  open: 'open',
  opendir: 'read the directory',
  read: 'read',
  readlink: 'read the link',
  realpath: 'resolve',
  rename: 'move',
  rm: 'remove',
  rmdir: 'remove the directory',
  scandir: 'read the directory',
  stat: 'read',
  symlink: 'create the link',
  unlink: 'remove',
  utime: 'touch',
  write: 'write',
};

/** Why, by error code (`syscall` refines EEXIST: a directory could not be made where something else is). */
function reason(code: string, syscall: string): string | undefined {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EEXIST':
      return syscall === 'mkdir' ? 'a file is there, not a directory' : 'it already exists';
    case 'EISDIR':
      return 'it is a directory, where a file was expected';
    case 'ENOENT':
      return 'it does not exist';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory';
    case 'ENOTEMPTY':
      return 'the directory is not empty';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    case 'ELOOP':
      return 'too many symbolic links in the path';
    case 'EBUSY':
      return 'it is in use';
    default:
      return undefined;
  }
}

function isSystemError(error: unknown): error is SystemError {
  const e = error as Partial<SystemError> | null;
  return (
    error instanceof Error && typeof e?.code === 'string' && typeof e.syscall === 'string' && typeof e.path === 'string'
  );
}

/** A server that could not listen: Node's error names the address and port. */
function listenErrorMessage(error: unknown): string | undefined {
  const e = error as { code?: unknown; syscall?: unknown; address?: unknown; port?: unknown } | null;
  if (
    !(error instanceof Error) ||
    e?.syscall !== 'listen' ||
    typeof e.address !== 'string' ||
    typeof e.port !== 'number'
  )
    return undefined;
  const at = `${e.address.includes(':') ? `[${e.address}]` : e.address}:${e.port}`;
  if (e.code === 'EADDRINUSE')
    return `cannot listen on ${at}: another process is listening there (EADDRINUSE); choose another port`;
  if (e.code === 'EACCES')
    return `cannot listen on ${at}: permission denied (EACCES); ports below 1024 need privileges`;
  if (e.code === 'EADDRNOTAVAIL')
    return `cannot listen on ${at}: no network interface of this machine has that address (EADDRNOTAVAIL)`;
  return undefined;
}

/**
 * The message for a file operation the system refused — "cannot create the directory /x: a file is there, not a
 * directory (EEXIST)" — or for a server that could not listen; undefined for any other error.
 */
export function systemErrorMessage(error: unknown): string | undefined {
  const listen = listenErrorMessage(error);
  if (listen !== undefined) return listen;
  if (!isSystemError(error)) return undefined;
  const why = reason(error.code, error.syscall);
  if (why === undefined) return undefined;
  const doing = DOING[error.syscall] ?? error.syscall;
  const target =
    error.dest === undefined ? displayPath(error.path) : `${displayPath(error.path)} to ${displayPath(error.dest)}`;
  return `cannot ${doing} ${target}: ${why} (${error.code})`;
}
