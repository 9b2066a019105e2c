import type { Command } from './command.js';
import { contractsCommand } from './commands/contracts.js';
import { helpCommand } from './commands/help.js';
import { planCommand } from './commands/plan.js';
import { renderArgvCommand } from './commands/render-argv.js';
import { verifyCommand } from './commands/verify.js';

/** The command table, in the order help lists it. A new command is one file and one line. */
export const COMMANDS: readonly Command[] = [
  planCommand,
  verifyCommand,
  renderArgvCommand,
  contractsCommand,
  helpCommand,
];
