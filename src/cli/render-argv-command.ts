import { CursorHooksError, type HookPlanner } from '../index.js';
import { errorJSON } from './error-json.js';
import { ExitCode } from './exit-codes.js';
import { type CliIO, writeJSON } from './io.js';
import { UsageError } from './usage-error.js';

interface RenderArgs {
  readonly shell: string;
  readonly tokens: readonly string[];
}

/** `render-argv --shell ID -- TOKEN…`: the command line on stdout, or the refusal JSON. */
export function renderArgvCommand(
  args: readonly string[],
  io: CliIO,
  planner: HookPlanner,
): ExitCode {
  const { shell, tokens } = parseRenderArgs(args);
  let line: string;
  try {
    line = planner.renderArgv(shell, tokens);
  } catch (err) {
    if (!(err instanceof CursorHooksError)) throw err;
    writeJSON(io, { error: errorJSON(err) });
    return ExitCode.Refused;
  }
  io.stdout(`${line}\n`);
  return ExitCode.Ok;
}

/** Tokens must follow `--`, so a token like `--binding` is never taken for an option. */
function parseRenderArgs(args: readonly string[]): RenderArgs {
  const end = args.indexOf('--');
  if (end === -1) throw new UsageError('render-argv needs -- before the argv tokens');
  let shell: string | undefined;
  for (let i = 0; i < end; i++) {
    const arg = args[i];
    let value: string | undefined;
    if (arg === '--shell') {
      i++;
      value = i < end ? args[i] : undefined;
    } else if (arg?.startsWith('--shell=')) {
      value = arg.slice('--shell='.length);
    } else {
      throw new UsageError('render-argv takes only --shell ID before --');
    }
    if (value === undefined) throw new UsageError('--shell needs a contract id');
    if (shell !== undefined) throw new UsageError('--shell is given more than once');
    shell = value;
  }
  if (shell === undefined) throw new UsageError('render-argv needs --shell ID');
  return { shell, tokens: args.slice(end + 1) };
}
