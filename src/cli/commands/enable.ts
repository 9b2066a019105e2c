import { Operation } from '../../planner/operation.js';
import { operationCommand } from '../file/operation-command.js';
import {
  ACCEPT_METADATA_LOSS_OPTION,
  DRY_RUN_OPTION,
  FILE_OPTIONS,
  VOUCH_OPTION,
} from '../file/options.js';

/** `enable`: end the user's "off": install again the spec and contract disable recorded. */
export const enableCommand = operationCommand({
  operation: Operation.Install,
  name: 'enable',
  intent: 'enable',
  summary: 'turn the owned entry back on after disable',
  description: `Installs again the entry disable took out, with the spec and contract the ledger kept, and
ends the "off". The host path checks run first, as for install. Enabling an entry that is owned
and intact is a no-op; refused not-disabled when nothing was turned off.`,
  options: { ...FILE_OPTIONS, ...DRY_RUN_OPTION, ...VOUCH_OPTION, ...ACCEPT_METADATA_LOSS_OPTION },
});
