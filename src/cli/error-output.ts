import {
  AbsenceUnprovenError,
  type CursorHooksError,
  type DocumentPosition,
  errorIs,
  UnsupportedError,
} from '../errors/errors.js';
import type { ExecutableUnverifiedError } from '../node/status/executable-unverified.js';
import type { CliError, ErrorKind, ErrorSubject } from './cli-error.js';

/** The one error shape, `{"error": ErrorJSON}`, for every failure (schemas/error.json). */
export interface ErrorJSON {
  readonly kind: ErrorKind;
  readonly reason: string;
  readonly message: string;
  readonly field?: string;
  readonly option?: string;
  readonly role?: string;
  readonly path?: string;
  readonly holder?: ErrorSubject['holder'];
  /** For executable-unverified: the host path check that decided it (role and path above). */
  readonly check?: string;
  /** That check's fixed sentence. */
  readonly detail?: string;
  /** Where in the hook file a refusal of the document is about. */
  readonly at?: DocumentPosition;
}

/** A library refusal's kind: the most specific one on its cause chain. */
function refusalKind(error: CursorHooksError): ErrorKind {
  if (errorIs(error, AbsenceUnprovenError)) return 'absence-unproven';
  if (errorIs(error, UnsupportedError)) return 'unsupported';
  return 'conflict';
}

export function refusalJSON(error: CursorHooksError): ErrorJSON {
  const { at } = error;
  const where =
    at === undefined ? {} : { at: { offset: at.offset, line: at.line, column: at.column } };
  return {
    kind: refusalKind(error),
    reason: error.reason,
    message: error.message,
    ...where,
    ...pathCheckOf(error),
    ...heartbeatPathOf(error),
  };
}

/** A refused heartbeat path (HeartbeatPathError): the role and the path as given. */
function heartbeatPathOf(error: CursorHooksError): Partial<ErrorJSON> {
  // By shape, as pathCheckOf: the class lives in the host kit.
  const { role, path } = error as { role?: unknown; path?: unknown };
  return role === 'heartbeat' && typeof path === 'string' ? { role, path } : {};
}

/** The check behind executable-unverified, so the headline names its cause, not a later list. */
function pathCheckOf(error: CursorHooksError): Partial<ErrorJSON> {
  // By reason and shape: a class test would evaluate host-kit code in every command's error path.
  if (error.reason !== 'executable-unverified' || !('check' in error)) return {};
  const { role, path, check, detail } = (error as ExecutableUnverifiedError).check;
  return { role, path, check, ...(detail === undefined ? {} : { detail }) };
}

export function cliErrorJSON(error: CliError): ErrorJSON {
  return { kind: error.kind, reason: error.reason, message: error.message, ...error.subject };
}

export const INTERNAL_ERROR: ErrorJSON = {
  kind: 'internal',
  reason: 'internal-failure',
  message: 'an unexpected internal failure stopped the command',
};

const ROLE_NAMES: Readonly<Record<string, string>> = {
  'hook-file': 'hook file',
  ledger: 'ledger',
  directory: 'directory',
  lock: 'lock file',
  probe: 'qualification probe',
  record: 'qualification record',
  heartbeat: 'heartbeat file',
  executable: 'executable',
  selector: 'selector',
};

/** The error as the single stderr line of a text-mode run, naming the file it is about. */
export function errorLine(error: ErrorJSON): string {
  const role = ROLE_NAMES[error.role ?? ''] ?? 'path';
  const check = error.check === undefined ? '' : ` ${error.check}`;
  const detail = error.detail === undefined ? '' : `; ${error.detail}`;
  const where = error.path === undefined ? '' : ` (${role}${check}: ${error.path}${detail})`;
  const holder =
    error.holder === undefined
      ? ''
      : ` held by pid ${error.holder.pid} on ${error.holder.hostname} since ${error.holder.acquiredAt}`;
  const at =
    error.at === undefined
      ? ''
      : ` at line ${error.at.line}, column ${error.at.column} (byte ${error.at.offset})`;
  return `cursorhooks: ${error.message}${at}${where}${holder} [${error.reason}]\n`;
}

/** The error as the single stderr line of a `--json` run. */
export function errorDocument(error: ErrorJSON): string {
  return `${JSON.stringify({ error })}\n`;
}
