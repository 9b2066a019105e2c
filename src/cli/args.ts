import { UsageError } from './usage-error.js';

const HELP_FLAGS: ReadonlySet<string> = new Set(['--help', '-h']);

/** A help flag anywhere before `--` asks for help; after `--` it is an argv token. */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => HELP_FLAGS.has(arg));
}

/** Commands that read everything from stdin take no arguments besides help. */
export function assertNoArguments(command: string, args: readonly string[]): void {
  if (args.length > 0) {
    throw new UsageError(`${command} takes no arguments; the request is read from stdin`);
  }
}
