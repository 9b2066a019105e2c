import { type ErrorReason, isKnownReason, messageFor } from './reasons.js';

/**
 * Where in the document a refusal is about, as numbers only (never the bytes there).
 * `offset`: the byte offset from 0 of the first byte no valid document could hold there (for
 * invalid UTF-8, the first byte of the ill-formed sequence; for a trailing comma, the comma;
 * for a repeated key, the opening quote of its second occurrence; for a wrong value, its first
 * byte), or the document's length when it ends too early. `line`: from 1; a line ends at LF, CR LF or a lone CR. `column`: from
 * 1, counting code points (not bytes or UTF-16 units) of that line before the offset.
 */
export interface DocumentPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export interface CursorHooksErrorOptions {
  /** Another cursorhooks error this one wraps; it is found by `errorIs`. */
  readonly cause?: CursorHooksError;
  /** Where in the document the refusal is about. */
  readonly at?: DocumentPosition;
}

/** The one error type: a stable machine `reason` and a message from the fixed table. */
export class CursorHooksError extends Error {
  readonly reason: ErrorReason;
  // Declared, not a class field: an error without a position has no `at` property at all.
  /** Set on refusals about one place in the document; the message never includes it. */
  declare readonly at?: DocumentPosition;

  constructor(reason: ErrorReason, options?: CursorHooksErrorOptions) {
    super(messageFor(reason), options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.name = new.target.name;
    if (options?.at !== undefined) this.at = options.at;
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

function isCount(value: unknown, least: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= least;
}

/**
 * A fresh copy of `err.at` if it holds three counts, else undefined: numbers only travel, and
 * a plugin's throwing getter or proxy there costs the position, never the refusal.
 */
function positionOf(err: CursorHooksError): DocumentPosition | undefined {
  try {
    const at: unknown = err.at;
    if (typeof at !== 'object' || at === null) return undefined;
    const { offset, line, column } = at as Record<string, unknown>;
    if (!isCount(offset, 0) || !isCount(line, 1) || !isCount(column, 1)) return undefined;
    return Object.freeze({ offset, line, column });
  } catch {
    return undefined;
  }
}

/**
 * The single boundary rule of `plan` and `verifyOwned`: every refusal is a ConflictError,
 * keeping the specific kind on its cause. Errors are rebuilt from their kind, reason and
 * position (three integers) alone, so a host plugin's own message or properties never travel
 * on; a reason outside the fixed table, or any foreign throwable (a plugin's bug), becomes
 * `unexpected-failure`.
 */
export function asConflict(err: unknown): ConflictError {
  if (!(err instanceof CursorHooksError) || !isKnownReason(err.reason)) {
    return new ConflictError('unexpected-failure');
  }
  const kind = [UnsupportedError, AbsenceUnprovenError].find(
    (candidate) => err instanceof candidate,
  );
  const at = positionOf(err);
  const where = at === undefined ? {} : { at };
  const cause = kind === undefined ? undefined : new kind(err.reason, where);
  return new ConflictError(err.reason, cause === undefined ? where : { cause, ...where });
}
