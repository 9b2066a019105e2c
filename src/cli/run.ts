import { createPlannerContainer, HookPlanner } from '../index.js';
import { assertNoArguments, wantsHelp } from './args.js';
import { contractsCommand } from './contracts-command.js';
import { ExitCode } from './exit-codes.js';
import { CONTRACTS_HELP, PLAN_HELP, RENDER_ARGV_HELP, TOOL_HELP, VERIFY_HELP } from './help.js';
import type { CliInput, CliIO } from './io.js';
import { planCommand } from './plan-command.js';
import { renderArgvCommand } from './render-argv-command.js';
import { UsageError } from './usage-error.js';
import { verifyCommand } from './verify-command.js';

interface Command {
  readonly help: string;
  execute(
    args: readonly string[],
    stdin: CliInput,
    io: CliIO,
    planner: HookPlanner,
  ): Promise<ExitCode> | ExitCode;
}

const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  [
    'plan',
    {
      help: PLAN_HELP,
      execute: (args, stdin, io, planner) => {
        assertNoArguments('plan', args);
        return planCommand(stdin, io, planner);
      },
    },
  ],
  [
    'verify',
    {
      help: VERIFY_HELP,
      execute: (args, stdin, io, planner) => {
        assertNoArguments('verify', args);
        return verifyCommand(stdin, io, planner);
      },
    },
  ],
  [
    'render-argv',
    {
      help: RENDER_ARGV_HELP,
      execute: (args, _stdin, io, planner) => renderArgvCommand(args, io, planner),
    },
  ],
  [
    'contracts',
    {
      help: CONTRACTS_HELP,
      execute: (args, _stdin, io, planner) => {
        assertNoArguments('contracts', args);
        return contractsCommand(io, planner);
      },
    },
  ],
]);

/**
 * The whole CLI: `argv` without the node and script paths. Returns the exit code and never
 * throws; usage errors and failures become one line on stderr, never a stack trace.
 */
export async function run(argv: readonly string[], stdin: CliInput, io: CliIO): Promise<number> {
  try {
    return await dispatch(argv, stdin, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`cursorhooks: ${err.message}\n`);
      return ExitCode.Usage;
    }
    io.stderr('cursorhooks: an unexpected internal failure stopped the command\n');
    return ExitCode.Internal;
  }
}

async function dispatch(argv: readonly string[], stdin: CliInput, io: CliIO): Promise<ExitCode> {
  const [name, ...args] = argv;
  if (name === undefined) throw new UsageError('missing command; see cursorhooks --help');
  if (name === '--help' || name === '-h') {
    io.stdout(TOOL_HELP);
    return ExitCode.Ok;
  }
  const command = COMMANDS.get(name);
  if (command === undefined) {
    const what = name.startsWith('-') ? 'unknown option' : 'unknown command';
    throw new UsageError(`${what}; see cursorhooks --help`);
  }
  if (wantsHelp(args)) {
    io.stdout(command.help);
    return ExitCode.Ok;
  }
  return command.execute(args, stdin, io, createPlannerContainer().get(HookPlanner));
}
