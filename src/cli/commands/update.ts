import { Operation } from '../../planner/operation.js';
import { operationCommand } from '../file/operation-command.js';
import {
  ACCEPT_METADATA_LOSS_OPTION,
  DRY_RUN_OPTION,
  FILE_OPTIONS,
  specOptions,
  VOUCH_OPTION,
} from '../file/options.js';

/** `update`: replace the owned entry with one for a new spec, in place. */
export const updateCommand = operationCommand({
  operation: Operation.Update,
  summary: 'replace the owned entry with one for a new spec',
  description: `Replaces the receipted owned entry, where it stands, with the entry for --executable,
--selector and --shell, and records the new receipt. Refused unless the receipted entry is intact
and every host path check of the new spec passed.`,
  options: {
    ...FILE_OPTIONS,
    ...specOptions(true),
    ...DRY_RUN_OPTION,
    ...VOUCH_OPTION,
    ...ACCEPT_METADATA_LOSS_OPTION,
  },
});
