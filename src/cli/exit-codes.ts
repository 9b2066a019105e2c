/** The CLI's exit codes. Hosts branch on them, so they are part of its interface. */
export const ExitCode = {
  /** Planned, owned, rendered or listed. */
  Ok: 0,
  /** The library refused; stdout carries the error JSON. */
  Refused: 1,
  /** Bad usage or an unreadable request; one line on stderr. */
  Usage: 2,
  /** A bug: something other than a refusal or a usage error escaped. */
  Internal: 70,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
