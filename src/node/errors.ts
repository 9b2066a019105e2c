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

/** A file system, lock or read-back failure. `code` is the errno code (EACCES, ENOSPC…), if any. */
export class HostIOError extends CursorHooksError {
  readonly code: string | undefined;

  constructor(reason: ErrorReason, code?: string) {
    super(reason);
    this.code = code;
  }
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

/** Kit errors pass through; a system error becomes a HostIOError keeping only its errno code. */
export function asHostError(err: unknown): CursorHooksError {
  if (err instanceof CursorHooksError) return err;
  const code = errnoOf(err);
  return new HostIOError((code && REASON_BY_CODE[code]) || 'io-failure', code);
}
