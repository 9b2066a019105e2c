import { type ErrorReason, isKnownReason, messageFor } from './reasons.js';

export interface CursorHooksErrorOptions {
  /** Another cursorhooks error this one wraps; it is found by `errorIs`. */
  readonly cause?: CursorHooksError;
}

/** The one error type: a stable machine `reason` and a message from the fixed table. */
export class CursorHooksError extends Error {
  readonly reason: ErrorReason;

  constructor(reason: ErrorReason, options?: CursorHooksErrorOptions) {
    super(messageFor(reason), options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.name = new.target.name;
  }
}

/** The document, receipt or request cannot be proven safe to act on. Every plan refusal is one. */
export class ConflictError extends CursorHooksError {}

/** Input outside the qualified grammar, encoding, limits or shell contracts. */
export class UnsupportedError extends CursorHooksError {}

/** The owned entry is missing and nothing proves it was removed by us rather than by a user. */
export class AbsenceUnprovenError extends CursorHooksError {}

export type ErrorKind =
  | typeof ConflictError
  | typeof UnsupportedError
  | typeof AbsenceUnprovenError;

// A hostile or buggy cause chain may be cyclic or endless; refuse to walk further than this.
const MAX_CAUSE_DEPTH = 32;

/** True if `err` or any error on its `cause` chain is an instance of `kind`. */
export function errorIs(err: unknown, kind: ErrorKind): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    if (current instanceof kind) return true;
    current = current.cause;
  }
  return false;
}

/**
 * The single boundary rule of `plan` and `verifyOwned`: every refusal is a ConflictError,
 * keeping the specific kind on its cause. Errors are rebuilt from their kind and reason alone,
 * so a host plugin's own message or properties never travel on; a reason outside the fixed
 * table, or any foreign throwable (a plugin's bug), becomes `unexpected-failure`.
 */
export function asConflict(err: unknown): ConflictError {
  if (!(err instanceof CursorHooksError) || !isKnownReason(err.reason)) {
    return new ConflictError('unexpected-failure');
  }
  const kind = [UnsupportedError, AbsenceUnprovenError].find(
    (candidate) => err instanceof candidate,
  );
  const cause = kind === undefined ? undefined : new kind(err.reason);
  return new ConflictError(err.reason, cause === undefined ? undefined : { cause });
}
