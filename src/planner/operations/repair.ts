import { readHookSpec, sameSpec } from '../../domain/hook-spec.js';
import { AbsenceUnprovenError, ConflictError } from '../../errors/errors.js';
import { isOmitted, type RequestFields } from '../request.js';
import {
  type Decision,
  issue,
  type OperationContext,
  type Previous,
  requirePrevious,
  requireVerified,
} from './context.js';

/**
 * Puts back exactly the receipted entry, and only when nothing else changed: the owned command
 * absent with the remainder as receipted, or the owner intact with it unchanged (a no-op).
 * A changed, duplicated or moved owner stays a conflict and can never become a reinstall.
 */
export function repair({ fields, document, contracts }: OperationContext): Decision {
  requireVerified(fields);
  const previous = requirePrevious(fields, contracts);
  assertReceiptedRequest(fields, previous);
  const absent = document.occurrences(previous.entry.command).length === 0;
  const owner = absent ? undefined : document.locateOwner(previous.entry);
  if (document.remainderDigest(owner) !== previous.remainderDigest) {
    throw new AbsenceUnprovenError('remainder-drift');
  }
  const receipt = issue(previous, previous.remainderDigest);
  return absent ? { desired: document.appendEntry(previous.entry), receipt } : { receipt };
}

/** Repair acts only on the receipted spec and shell; the request may restate them, no more. */
function assertReceiptedRequest(fields: RequestFields, previous: Previous): void {
  const { specs, shell } = fields;
  if (!isOmitted(specs)) {
    if (!Array.isArray(specs)) throw new ConflictError('spec-malformed');
    if (specs.length !== 1 || !sameSpec(readHookSpec(specs[0]), previous.spec)) {
      throw new ConflictError('spec-mismatch');
    }
  }
  if (!isOmitted(shell) && shell !== previous.shell) throw new ConflictError('shell-mismatch');
}
