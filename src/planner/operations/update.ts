import {
  type Decision,
  issue,
  type OperationContext,
  renderRequested,
  requirePrevious,
  requireVerified,
} from './context.js';

/**
 * Replaces the verified owner at its current position with the newly rendered entry. The new
 * command may occur nowhere but at the owner; an equal entry leaves the bytes and refreshes
 * the receipt's remainder.
 */
export function update({ fields, document, contracts }: OperationContext): Decision {
  requireVerified(fields);
  const previous = requirePrevious(fields, contracts);
  const wanted = renderRequested(fields, contracts);
  const owner = document.locateOwner(previous.entry);
  document.assertCommandFree(wanted.entry.command, owner);
  const receipt = issue(wanted, document.remainderDigest(owner));
  if (wanted.entry.digest === previous.entry.digest) return { receipt };
  return { desired: document.replaceEntry(owner, wanted.entry), receipt };
}
