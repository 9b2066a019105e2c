import { CursorHooksError } from '../errors/errors.js';
import { CliError, EXIT_CODE_OF_KIND, usageError } from './cli-error.js';
import { type Command, type CommandContext, loadCommands } from './command.js';
import { unknownCommand } from './commands/help.js';
import { COMMANDS } from './commands.js';
import {
  cliErrorJSON,
  type ErrorJSON,
  errorDocument,
  errorLine,
  INTERNAL_ERROR,
  refusalJSON,
} from './error-output.js';
import { ExitCode } from './exit-codes.js';
import { commandHelp, describeCommand, TOOL_OPTIONS, toolHelp } from './help.js';
import { type CliInput, type CliIO, writeJSON } from './io.js';
import { assertRequiredOptions, COMMON_OPTIONS, parseArguments } from './parse.js';
import { terminalIO } from './terminal-text.js';
import { packageVersion } from './version.js';

/**
 * The whole CLI: `argv` without the node and script paths. Returns the exit code and never
 * throws: every failure becomes exactly one error on stderr, JSON when `--json` is in force.
 * Every write to `streams` has its control characters escaped (terminal-text.ts).
 */
export async function run(
  argv: readonly string[],
  stdin: CliInput,
  streams: CliIO,
): Promise<number> {
  const io = terminalIO(streams);
  // Tool options come before the command name, which is the first argument not starting with -.
  const at = argv.findIndex((arg) => !arg.startsWith('-'));
  const command = await COMMANDS.find((entry) => entry.name === argv[at])?.load();
  const json = wantsJSON(argv, command);
  try {
    return await dispatch(argv, at, command, stdin, io);
  } catch (err) {
    const error = toErrorJSON(err);
    io.stderr(json ? errorDocument(error) : errorLine(error));
    return EXIT_CODE_OF_KIND[error.kind];
  }
}

/** `at`: the index of the command name in `argv`, or -1; `command`: the command it names. */
async function dispatch(
  argv: readonly string[],
  at: number,
  command: Command | undefined,
  stdin: CliInput,
  io: CliIO,
): Promise<ExitCode> {
  const toolArgs = at === -1 ? argv : argv.slice(0, at);
  const tool = parseArguments(toolArgs, TOOL_OPTIONS, undefined).options;
  const json = tool.json === true;
  if (tool.version === true) {
    const version = await packageVersion();
    if (json) writeJSON(io, { version });
    else io.stdout(`${version}\n`);
    return ExitCode.Ok;
  }
  if (at === -1) {
    if (tool.help !== true) {
      throw usageError(
        'command-missing',
        `missing command; the commands are: ${COMMANDS.map((c) => c.name).join(', ')}`,
      );
    }
    const commands = await loadCommands(COMMANDS);
    if (json) writeJSON(io, { commands: commands.map(describeCommand) });
    else io.stdout(toolHelp(commands));
    return ExitCode.Ok;
  }
  if (command === undefined) throw unknownCommand(argv[at] as string, COMMANDS);
  const declared = { ...command.options, ...COMMON_OPTIONS };
  const { options, positionals } = parseArguments(
    argv.slice(at + 1),
    declared,
    command.positionals,
  );
  const asked = json || options.json === true;
  if (options.help === true || tool.help === true) {
    // Help is text unless JSON was asked for, also for the JSON-only commands.
    if (asked) writeJSON(io, { commands: [describeCommand(command)] });
    else io.stdout(commandHelp(command));
    return ExitCode.Ok;
  }
  assertRequiredOptions(options, command.options);
  const context: CommandContext = {
    options,
    positionals,
    json: asked || command.jsonOnly === true,
    stdin,
    io,
    commands: COMMANDS,
  };
  return command.run(context);
}

/**
 * Whether errors print as JSON. Decided before parsing, because a parse error needs it: a
 * `--json` (even a malformed `--json=…`) before `--`, or a command whose output is always JSON.
 */
function wantsJSON(argv: readonly string[], command: Command | undefined): boolean {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return (
    options.some((arg) => arg === '--json' || arg.startsWith('--json=')) ||
    command?.jsonOnly === true
  );
}

function toErrorJSON(err: unknown): ErrorJSON {
  if (err instanceof CliError) return cliErrorJSON(err);
  if (err instanceof CursorHooksError) return refusalJSON(err);
  return INTERNAL_ERROR;
}
