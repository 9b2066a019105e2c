import {
  AbsenceUnprovenError,
  ConflictError,
  type CursorHooksError,
  errorIs,
  UnsupportedError,
} from '../index.js';

export interface ErrorJSON {
  readonly kinds: readonly string[];
  readonly reason: string;
  readonly message: string;
}

const KINDS = [
  ['conflict', ConflictError],
  ['unsupported', UnsupportedError],
  ['absence-unproven', AbsenceUnprovenError],
] as const;

/** A refusal as JSON. `kinds` follows the cause chain, as `errorIs` does for library hosts. */
export function errorJSON(error: CursorHooksError): ErrorJSON {
  return {
    kinds: KINDS.filter(([, kind]) => errorIs(error, kind)).map(([name]) => name),
    reason: error.reason,
    message: error.message,
  };
}
