import { nameLike, usageError } from '../cli-error.js';
import { type Command, loadCommands } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { commandHelp, describeCommand, toolHelp } from '../help.js';
import { writeJSON } from '../io.js';

/** `help [COMMAND]`: the tool's help, or one command's. */
export const helpCommand: Command = {
  name: 'help',
  summary: 'describe the tool, or one command',
  description: 'Prints the usage of the tool, or of COMMAND.',
  options: {},
  positionals: { usage: '[COMMAND]', help: 'the command to describe', max: 1 },
  output: 'the help text; with --json {"commands": [...]} describing each command',
  async run({ positionals, json, io, commands }) {
    const [name] = positionals;
    const selected = await loadCommands(
      name === undefined ? commands : commands.filter((c) => c.name === name),
    );
    if (name !== undefined && selected.length === 0) throw unknownCommand(name, commands);
    if (json) writeJSON(io, { commands: selected.map(describeCommand) });
    else io.stdout(name === undefined ? toolHelp(selected) : commandHelp(selected[0] as Command));
    return ExitCode.Ok;
  },
};

/** The commands are constants, so the message lists them. */
export function unknownCommand(name: string, commands: readonly { readonly name: string }[]) {
  const safe = nameLike(name);
  return usageError(
    'command-unknown',
    `unknown command${safe === undefined ? '' : ` ${safe}`}; the commands are: ${commands.map((c) => c.name).join(', ')}`,
  );
}
