import type { Command } from './command.js';
import { contractsCommand } from './commands/contracts.js';
import { helpCommand } from './commands/help.js';
import { installCommand } from './commands/install.js';
import { planCommand } from './commands/plan.js';
import { qualifyCommand } from './commands/qualify.js';
import { releaseCommand } from './commands/release.js';
import { removeCommand } from './commands/remove.js';
import { renderArgvCommand } from './commands/render-argv.js';
import { repairCommand } from './commands/repair.js';
import { statusCommand } from './commands/status.js';
import { updateCommand } from './commands/update.js';
import { verifyCommand } from './commands/verify.js';

/** The command table, in the order help lists it. A new command is one file and one line. */
export const COMMANDS: readonly Command[] = [
  planCommand,
  verifyCommand,
  renderArgvCommand,
  contractsCommand,
  installCommand,
  updateCommand,
  removeCommand,
  repairCommand,
  releaseCommand,
  statusCommand,
  qualifyCommand,
  helpCommand,
];
