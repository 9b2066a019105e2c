import { Operation } from '../../planner/operation.js';
import { operationCommand } from '../file/operation-command.js';
import { ACCEPT_METADATA_LOSS_OPTION, DRY_RUN_OPTION, FILE_OPTIONS } from '../file/options.js';

/** `remove`: take the owned entry out and record the removal. */
export const removeCommand = operationCommand({
  operation: Operation.Remove,
  summary: 'remove the owned entry from the hook file',
  description: `Removes the receipted owned entry and nothing else, and records the removal in the
ledger. Refused unless the entry is intact; removing again after a removal is a no-op.`,
  options: { ...FILE_OPTIONS, ...DRY_RUN_OPTION, ...ACCEPT_METADATA_LOSS_OPTION },
});
