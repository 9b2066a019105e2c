// The one invocation this library ever asks a shell to run:
//   <executable> cursor-event stop --binding <selector>

const STOP_ARGV_LENGTH = 5;
const SUBCOMMAND = ['cursor-event', 'stop', '--binding'] as const;

export function stopArgv(executable: string, selector: string): readonly string[] {
  return [executable, ...SUBCOMMAND, selector];
}

/** True when argv is exactly the fixed stop invocation (paths are checked elsewhere). */
export function isStopArgv(argv: readonly string[]): boolean {
  return (
    argv.length === STOP_ARGV_LENGTH &&
    argv[1] === SUBCOMMAND[0] &&
    argv[2] === SUBCOMMAND[1] &&
    argv[3] === SUBCOMMAND[2]
  );
}
