/**
 * The CLI's exit codes. Hosts branch on them, so they are part of its interface; the table
 * below is printed in every help text and mirrored in docs/protocol.md.
 */
export const ExitCode = {
  /** Done, or nothing to do: planned, owned, rendered, listed, printed. */
  Ok: 0,
  /** Refused by the lifecycle (a library refusal), or `verify` found no intact owned entry. */
  Refused: 1,
  /** Bad usage or an unreadable request: unknown option, wrong field type, oversized stdin. */
  Usage: 2,
  /** A bug: something other than a refusal or a usage error escaped. */
  Internal: 70,
  /** An I/O or permission failure (stdin unreadable; files, for the file-level commands). */
  IO: 74,
  /** The file changed between read and write: nothing was written; plan again and retry. */
  Changed: 75,
  /** stdout was closed before the output was written (EPIPE); nothing more is printed. */
  StdoutClosed: 141,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** One line per code, for help texts. */
export const EXIT_CODE_HELP: readonly (readonly [ExitCode, string])[] = [
  [ExitCode.Ok, 'done, or nothing to do'],
  [ExitCode.Refused, 'refused by the lifecycle, or verify found no intact owned entry'],
  [ExitCode.Usage, 'bad usage or an unreadable request'],
  [ExitCode.Internal, 'internal failure (a bug)'],
  [ExitCode.IO, 'I/O or permission failure'],
  [ExitCode.Changed, 'the file changed concurrently: nothing written, plan again and retry'],
  [ExitCode.StdoutClosed, 'stdout was closed early (EPIPE); nothing more is printed'],
];
