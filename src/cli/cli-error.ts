import { ExitCode } from './exit-codes.js';

/**
 * Every failure the CLI reports has one of these kinds. The last three come from the library
 * (`errorIs` on the refusal); the others are the CLI's own.
 */
export type ErrorKind =
  | 'usage'
  | 'io'
  | 'changed'
  | 'internal'
  | 'conflict'
  | 'unsupported'
  | 'absence-unproven';

export type CliErrorKind = Extract<ErrorKind, 'usage' | 'io' | 'changed' | 'internal'>;

/** Which option or request field a failure is about, by its declared name. */
export interface ErrorSubject {
  /** A request field's schema name, e.g. `executableVerified` or `specs`. */
  readonly field?: string;
  /** An option as declared, with its dashes, e.g. `--shell`. */
  readonly option?: string;
  /** For a file the tool could not read or write: which of its files, and the path refused. */
  readonly role?: string;
  readonly path?: string;
  /** For `lock-timeout`: the live process holding the lock, as its lock file names it. */
  readonly holder?: {
    readonly pid: number;
    readonly hostname: string;
    readonly acquiredAt: string;
  };
}

/** Each kind's exit code: library refusals exit 1, the CLI's own kinds have their own codes. */
export const EXIT_CODE_OF_KIND: Readonly<Record<ErrorKind, ExitCode>> = {
  conflict: ExitCode.Refused,
  unsupported: ExitCode.Refused,
  'absence-unproven': ExitCode.Refused,
  usage: ExitCode.Usage,
  io: ExitCode.IO,
  changed: ExitCode.Changed,
  internal: ExitCode.Internal,
};

/**
 * A failure of the CLI itself (not a library refusal). `reason` is a stable kebab-case code;
 * the message is fixed text that may name an option or field, never a value from the request.
 */
export class CliError extends Error {
  readonly kind: CliErrorKind;
  readonly reason: string;
  readonly subject: ErrorSubject;

  constructor(kind: CliErrorKind, reason: string, message: string, subject: ErrorSubject = {}) {
    super(message);
    this.name = 'CliError';
    this.kind = kind;
    this.reason = reason;
    this.subject = subject;
  }
}

/** A usage error: exit 2. */
export function usageError(reason: string, message: string, subject?: ErrorSubject): CliError {
  return new CliError('usage', reason, message, subject);
}

// Names the user typed (an unknown option or field) are repeated only when they look like a
// name; anything else may be a path, a secret or control characters and is left out.
const NAME_LIKE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** `name` if it is safe to repeat in a message, else undefined. */
export function nameLike(name: string): string | undefined {
  return NAME_LIKE.test(name) ? name : undefined;
}
