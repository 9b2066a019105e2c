import type { Command } from '../command.js';
import { CONTRACT_FILE_OPTION, plannerOf } from '../contract-files.js';
import { ExitCode } from '../exit-codes.js';
import { writeJSON } from '../io.js';

/** `render-argv --shell ID -- TOKEN…`: the command line a contract renders for the tokens. */
export const renderArgvCommand: Command = {
  name: 'render-argv',
  summary: 'render an argv through a registered shell contract',
  description: `Prints the command line that contract ID renders for the tokens after --.
Tokens outside the contract's grammar are refused with exit 1.`,
  options: {
    shell: {
      type: 'string',
      value: 'ID',
      required: true,
      help: 'a registered contract id (see: cursorhooks contracts)',
    },
    ...CONTRACT_FILE_OPTION,
  },
  positionals: {
    usage: '-- TOKEN...',
    help: 'the argv tokens; they follow -- so that none is read as an option',
    afterTerminator: true,
  },
  output: 'the command line; with --json {"command": TEXT}',
  async run({ options, positionals, json, io }) {
    const command = (await plannerOf(options)).renderArgv(options.shell as string, positionals);
    if (json) writeJSON(io, { command });
    else io.stdout(`${command}\n`);
    return ExitCode.Ok;
  },
};
