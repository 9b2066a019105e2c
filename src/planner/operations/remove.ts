import { type Decision, type OperationContext, requirePrevious } from './context.js';

/**
 * Removes only the verified owner. Specs, shell and executable attestation are ignored: a host
 * must be able to remove its entry after its executable is gone. No receipt is returned; the
 * host records the removal in its own ledger.
 */
export function remove({ fields, document, contracts }: OperationContext): Decision {
  const previous = requirePrevious(fields, contracts);
  const owner = document.locateOwner(previous.entry);
  return { desired: document.removeEntry(owner) };
}
