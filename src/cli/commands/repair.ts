import { Operation } from '../../planner/operation.js';
import { operationCommand } from '../file/operation-command.js';
import {
  ACCEPT_METADATA_LOSS_OPTION,
  DRY_RUN_OPTION,
  FILE_OPTIONS,
  specOptions,
  VOUCH_OPTION,
} from '../file/options.js';

/** `repair`: put a missing owned entry back when nothing else changed. */
export const repairCommand = operationCommand({
  operation: Operation.Repair,
  summary: 'put the receipted entry back if it is missing and nothing else changed',
  description: `Appends the receipted entry again when it is missing and the rest of the file is
exactly as the receipt recorded; a no-op when it is intact. An edited or duplicated entry, or any
other change to the file, is refused: review it by hand. The spec and shell default to the
receipted ones; given, they must equal them.`,
  options: {
    ...FILE_OPTIONS,
    ...specOptions(false),
    ...DRY_RUN_OPTION,
    ...VOUCH_OPTION,
    ...ACCEPT_METADATA_LOSS_OPTION,
  },
});
