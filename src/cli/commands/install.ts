import { Operation } from '../../planner/operation.js';
import { operationCommand } from '../file/operation-command.js';
import {
  ACCEPT_METADATA_LOSS_OPTION,
  DRY_RUN_OPTION,
  FILE_OPTIONS,
  HEARTBEAT_OPTION,
  specOptions,
  VOUCH_OPTION,
} from '../file/options.js';

/** `install`: add the owned stop entry to the hook file and record its receipt. */
export const installCommand = operationCommand({
  operation: Operation.Install,
  summary: 'install the owned stop entry into the hook file',
  description: `Adds the owned stop entry for --executable and --selector, rendered by --shell, to the
hook file, and records its receipt in --ledger. Installing again is a no-op; a changed spec needs
update. The host path checks run first; the entry is written only if every one passed.
--heartbeat records, with the install's time, the file the host's stop observer writes on each
stop: status then reports the last stop seen, and names requalify after a stop from another
Cursor version than the contract's.`,
  options: {
    ...FILE_OPTIONS,
    ...specOptions(true),
    ...HEARTBEAT_OPTION,
    ...DRY_RUN_OPTION,
    ...VOUCH_OPTION,
    ...ACCEPT_METADATA_LOSS_OPTION,
  },
});
