import { ConflictError } from '../../errors/errors.js';
import {
  type Decision,
  issue,
  type OperationContext,
  readPrevious,
  renderRequested,
  requireVerified,
} from './context.js';

/**
 * Without a receipt: append the entry, unless its command already occurs anywhere. With one:
 * the request must render exactly the receipted entry and the owner must verify; the bytes
 * stay and the receipt is refreshed.
 */
export function install({ fields, document, contracts }: OperationContext): Decision {
  requireVerified(fields);
  const wanted = renderRequested(fields, contracts);
  const previous = readPrevious(fields, contracts);
  if (previous === undefined) {
    document.assertCommandFree(wanted.entry.command);
    return {
      desired: document.appendEntry(wanted.entry),
      receipt: issue(wanted, document.remainderDigest()),
    };
  }
  // A different spec or rendering is a change of entry, which only Update may make.
  if (previous.entry.digest !== wanted.entry.digest) throw new ConflictError('spec-mismatch');
  const owner = document.locateOwner(previous.entry);
  return { receipt: issue(wanted, document.remainderDigest(owner)) };
}
