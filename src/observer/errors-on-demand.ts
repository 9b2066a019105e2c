// The error table, loaded only when the observer has something to report: most stops never do,
// and the table is the larger half of what every stop would otherwise load. Imported, never
// copied into the observer's bundles, so the class is the one every entry point exports.
import type { CursorHooksError } from '../errors/errors.js';
import type { ErrorReason } from '../errors/reasons.js';

/** The package's CursorHooksError for `reason`. */
export async function observerError(reason: ErrorReason): Promise<CursorHooksError> {
  const { CursorHooksError } = await import('../errors/errors.js');
  return new CursorHooksError(reason);
}
