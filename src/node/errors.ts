// The kit's kinds of the one error type. Messages still come from the fixed table; the errno code
// of a failed system call may travel as `code`, never the path it was about.
import { CursorHooksError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';

/** The file is not what the plan was made from: nothing was written; read and plan again. */
export class FileChangedError extends CursorHooksError {
  constructor() {
    super('file-changed');
  }
}

/**
 * The path names another file than the one locked (a symlink was retargeted): lock that one and
 * plan again. Escaping the bounded retries, it is the `file-changed` it refines.
 */
export class TargetMovedError extends FileChangedError {}

/** Which of the kit's files a failure is about, so a user knows what to change. */
export type FileRole =
  | 'hook-file'
  | 'ledger'
  | 'directory'
  | 'lock'
  | 'probe'
  | 'record'
  | 'heartbeat'
  | 'payload';

/** The live process a `lock-timeout` waited for, as its lock file records it. */
export interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
  readonly acquiredAt: string;
}

/**
 * Where a host failure happened. These are the host's own paths (the hook file, the ledger, their
 * directories and side files), never bytes from a document or a receipt.
 */
export interface HostIODetails {
  readonly path?: string;
  readonly role?: FileRole;
  readonly holder?: LockHolder;
}

/** A file system, lock or read-back failure. `code` is the errno code (EACCES, ENOSPC…), if any. */
export class HostIOError extends CursorHooksError {
  readonly code: string | undefined;
  readonly path: string | undefined;
  readonly role: FileRole | undefined;
  readonly holder: LockHolder | undefined;

  constructor(reason: ErrorReason, code?: string, details: HostIODetails = {}) {
    super(reason);
    this.code = code;
    this.path = details.path;
    this.role = details.role;
    this.holder = details.holder;
  }
}

/**
 * The error with the file it is about: a HostIOError that names no path yet gets `role` and
 * `path`; any other error (or one already naming its file) passes through unchanged.
 */
export function aboutFile(err: unknown, role: FileRole, path: string): CursorHooksError {
  const host = asHostError(err);
  if (!(host instanceof HostIOError) || host.path !== undefined) return host;
  const holder = host.holder === undefined ? {} : { holder: host.holder };
  return new HostIOError(host.reason, host.code, { path, role, ...holder });
}

/**
 * A file could not be created in `directory`: refused permission there (a read-only `~/.cursor`)
 * means the directory is what to change, so it is named with the fix, never the file.
 */
export function creatingIn(err: unknown, directory: string): CursorHooksError {
  const code = errnoOf(err);
  if (code === 'EACCES' || code === 'EPERM') {
    return new HostIOError('directory-not-writable', code, { path: directory, role: 'directory' });
  }
  return aboutFile(err, 'directory', directory);
}

/** The receipt ledger cannot be read or its interrupted transaction cannot be resolved. */
export class LedgerError extends CursorHooksError {}

const REASON_BY_CODE: Readonly<Record<string, ErrorReason>> = {
  EACCES: 'permission-denied',
  EPERM: 'permission-denied',
  EROFS: 'permission-denied',
  ENOSPC: 'disk-full',
  EDQUOT: 'disk-full',
};

/** The errno code of a Node system error, if it has one. */
export function errnoOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A bug, not a failure: neither one of our errors nor a system call's (no errno code). The kit
 * reports failures as outcomes and lets a bug through, so it is never passed off as I/O.
 */
export function isBug(err: unknown): boolean {
  return !(err instanceof CursorHooksError) && errnoOf(err) === undefined;
}

/** Kit errors pass through; a system error becomes a HostIOError keeping only its errno code. */
export function asHostError(err: unknown): CursorHooksError {
  if (err instanceof CursorHooksError) return err;
  const code = errnoOf(err);
  return new HostIOError((code && REASON_BY_CODE[code]) || 'io-failure', code);
}
