// How a kit outcome's error leaves the CLI: thrown so `run` prints it in the one error shape and
// exits with its kind's code, and the same shape in the command's own result.
import type { CursorHooksError } from '../../errors/errors.js';
import { FileChangedError, HostIOError } from '../../node/errors.js';
import { CliError } from '../cli-error.js';
import { cliErrorJSON, type ErrorJSON, refusalJSON } from '../error-output.js';

/**
 * A changed file is `changed` (75), a file-system failure `io` (74); lifecycle and ledger
 * refusals stay library refusals (1).
 */
export function failureOf(error: CursorHooksError): CursorHooksError | CliError {
  if (error instanceof FileChangedError)
    return new CliError('changed', error.reason, error.message);
  if (error instanceof HostIOError) {
    return new CliError('io', error.reason, error.message, {
      ...(error.role === undefined ? {} : { role: error.role }),
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(error.holder === undefined ? {} : { holder: error.holder }),
    });
  }
  return error;
}

export function failureJSON(error: CursorHooksError): ErrorJSON {
  const failure = failureOf(error);
  return failure instanceof CliError ? cliErrorJSON(failure) : refusalJSON(failure);
}
