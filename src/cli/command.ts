import type { ExitCode } from './exit-codes.js';
import type { CliInput, CliIO } from './io.js';
import type { RequestFields } from './request-fields.js';

/** One option, as `util.parseArgs` takes it plus what help and usage errors need. */
export interface OptionDeclaration {
  readonly type: 'string' | 'boolean';
  /** One letter, e.g. `h` for `-h`. */
  readonly short?: string;
  /** The value's placeholder in help, e.g. `ID`; string options only. */
  readonly value?: string;
  readonly required?: boolean;
  /** A string option that may be given more than once; its values are collected in order. */
  readonly multiple?: boolean;
  readonly help: string;
}

export type OptionDeclarations = Readonly<Record<string, OptionDeclaration>>;

/** Positional arguments; a command without this declaration refuses every positional. */
export interface PositionalDeclaration {
  /** How they appear in the usage line, e.g. `-- TOKEN...` or `[COMMAND]`. */
  readonly usage: string;
  readonly help: string;
  /** Only arguments after `--` are taken, so a token like `--binding` is never an option. */
  readonly afterTerminator?: boolean;
  readonly max?: number;
}

/** Parsed option values: a string, a boolean, strings for `multiple`, undefined if absent. */
export type OptionValues = Readonly<
  Record<string, string | boolean | readonly string[] | undefined>
>;

/** What a command runs with. */
export interface CommandContext {
  readonly options: OptionValues;
  readonly positionals: readonly string[];
  /** Machine output: the command's `--json`, given anywhere, or implied by `jsonOnly`. */
  readonly json: boolean;
  readonly stdin: CliInput;
  readonly io: CliIO;
  /** The command table, for commands that describe the others (help). */
  readonly commands: readonly CommandEntry[];
}

/**
 * A command: its declarations (from which parsing, help and usage errors are generated) and
 * its behaviour. Adding a command is one file exporting one of these plus a line in the table
 * in `commands.ts`. Every command gets `--json` and `-h, --help` besides its own options.
 *
 * `run` returns the exit code of a success. Failures are thrown: a `CliError`, or a library
 * `CursorHooksError` for a refusal; `run.ts` prints them in the one error shape.
 */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Paragraphs for the command's own help. */
  readonly description: string;
  readonly options: OptionDeclarations;
  readonly positionals?: PositionalDeclaration;
  /** The JSON object read from stdin, if the command reads one. */
  readonly request?: RequestFields;
  /** What stdout holds on exit 0, for help. */
  readonly output: string;
  /** The output is JSON whether or not `--json` is given (`plan`, `verify`). */
  readonly jsonOnly?: boolean;
  run(context: CommandContext): Promise<ExitCode> | ExitCode;
}

/**
 * A row of the command table: the name, and the command's module, imported only when that
 * command runs or help describes it, so one call evaluates one command's code.
 */
export interface CommandEntry {
  readonly name: string;
  load(): Promise<Command>;
}

/** The commands of `entries`, each module loaded once, in table order. */
export function loadCommands(entries: readonly CommandEntry[]): Promise<Command[]> {
  return Promise.all(entries.map((entry) => entry.load()));
}
