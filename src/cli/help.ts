// Help texts, generated from the command declarations so they cannot drift from the parser.
import type { Command, OptionDeclaration, OptionDeclarations } from './command.js';
import { EXIT_CODE_HELP } from './exit-codes.js';
import { COMMON_OPTIONS } from './parse.js';

/** Options of the bare `cursorhooks`, before any command. */
export const TOOL_OPTIONS: OptionDeclarations = {
  version: { type: 'boolean', help: 'print the version' },
  ...COMMON_OPTIONS,
};

const EXIT_CODES = `Exit codes:\n${EXIT_CODE_HELP.map(([code, text]) => `  ${String(code).padEnd(4)}${text}`).join('\n')}`;

const ERRORS = `Errors: exactly one, on stderr; nothing on stdout, except that install, update, remove,
repair, release, simulate-stop and qualify also print their result (error included). With --json
(always for plan and verify):
  {"error": {"kind", "reason", "message", "field"?, "option"?}}
  kind is usage, conflict, unsupported, absence-unproven, io, changed or internal;
  field or option names the request field or option at fault. Without --json: one line.`;

export function toolHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  return `Usage: cursorhooks <command> [options]

Plans edits to Cursor's user hooks.json for exactly one owned stop hook entry.
plan, verify, render-argv and contracts are pure: they read a JSON request on stdin
and write JSON on stdout, and never read or write files, environment variables or
the network. install, update, remove, repair and status work on the hook file and
the host's receipt ledger (--ledger), safely: see cursorhooks help install.

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}${command.summary}`).join('\n')}

Options:
${optionLines(TOOL_OPTIONS)}

"cursorhooks help <command>" or "cursorhooks <command> --help" describes one command.

${ERRORS}

${EXIT_CODES}
`;
}

export function commandHelp(command: Command): string {
  const sections = [
    `Usage: ${usageLine(command)}`,
    command.description,
    `Options:\n${optionLines({ ...command.options, ...COMMON_OPTIONS })}`,
  ];
  if (command.positionals !== undefined) {
    sections.push(
      `Arguments:\n${aligned([[command.positionals.usage, command.positionals.help]])}`,
    );
  }
  if (command.request !== undefined) {
    const fields = Object.entries(command.request).map(([name, field]): [string, string] => [
      name,
      `${field.help}${field.required === true ? ' (required)' : ''}`,
    ]);
    sections.push(`Request (one JSON object on stdin):\n${aligned(fields)}`);
  }
  sections.push(`Output (stdout, exit 0):\n  ${command.output}`, ERRORS, EXIT_CODES);
  return `${sections.join('\n\n')}\n`;
}

export function usageLine(command: Command): string {
  const parts = [`cursorhooks ${command.name}`];
  for (const [name, option] of Object.entries(command.options)) {
    if (option.required === true) parts.push(`--${name} ${option.value ?? 'VALUE'}`);
  }
  parts.push('[options]');
  if (command.positionals !== undefined) parts.push(command.positionals.usage);
  if (command.request !== undefined) parts.push('< request.json');
  return parts.join(' ');
}

function optionLines(options: OptionDeclarations): string {
  return aligned(
    Object.entries(options).map(([name, option]) => [optionSignature(name, option), option.help]),
  );
}

/** Two columns, the second starting two spaces after the widest first one (at least 20). */
function aligned(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(18, ...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`).join('\n');
}

function optionSignature(name: string, option: OptionDeclaration): string {
  const short = option.short === undefined ? '' : `-${option.short}, `;
  const value = option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : '';
  return `${short}--${name}${value}`;
}

/** A command's declarations as JSON, for `help --json` (schemas/help-result.json). */
export function describeCommand(command: Command): unknown {
  return {
    name: command.name,
    summary: command.summary,
    usage: usageLine(command),
    options: Object.entries({ ...command.options, ...COMMON_OPTIONS }).map(([name, option]) => ({
      name: `--${name}`,
      ...(option.short === undefined ? {} : { short: `-${option.short}` }),
      type: option.type,
      required: option.required === true,
      multiple: option.multiple === true,
      help: option.help,
    })),
    arguments: command.positionals?.usage ?? null,
    request:
      command.request === undefined
        ? null
        : Object.entries(command.request).map(([name, field]) => ({
            name,
            required: field.required === true,
            expected: field.expected,
            help: field.help,
          })),
    output: command.output,
  };
}
