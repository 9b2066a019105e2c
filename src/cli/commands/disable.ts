import { Operation } from '../../planner/operation.js';
import { operationCommand } from '../file/operation-command.js';
import { ACCEPT_METADATA_LOSS_OPTION, DRY_RUN_OPTION, FILE_OPTIONS } from '../file/options.js';

/** `disable`: the user's "off": remove the owned entry and keep it off until enable. */
export const disableCommand = operationCommand({
  operation: Operation.Remove,
  name: 'disable',
  intent: 'disable',
  summary: "turn the owned entry off and keep it off (the user's choice)",
  description: `Removes the receipted owned entry, as remove does, and records in --ledger that the user
turned it off, with its spec and contract. Until enable, install, update and repair refuse
disabled-by-user and status reports disabled with nothing to do. An entry already removed or
deleted by hand is recorded as off without touching the file; disabling again is a no-op.`,
  options: { ...FILE_OPTIONS, ...DRY_RUN_OPTION, ...ACCEPT_METADATA_LOSS_OPTION },
});
