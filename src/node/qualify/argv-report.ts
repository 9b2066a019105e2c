// What finish shows when Cursor ran the probe with other arguments than it was given: each
// recorded invocation compared with the intended argv token by token. The tokens are the
// probe's own paths and test strings, never anything from the user's files.
import { ConflictError } from '../../errors/errors.js';
import { reportsVersion } from './record-from.js';
import type { Recording } from './recording.js';

export interface TokenComparison {
  readonly index: number;
  /** null: the invocation had more tokens than intended. */
  readonly intended: string | null;
  /** null: the token never arrived. */
  readonly recorded: string | null;
  readonly equal: boolean;
}

export interface InvocationReport {
  /** The recording's name in the probe's recordings directory. */
  readonly recording: string;
  readonly matched: boolean;
  /** Whether it named a Cursor version; finish ignores one that did not. */
  readonly versionReported: boolean;
  readonly tokens: readonly TokenComparison[];
}

export function compareArgv(
  recording: string,
  intended: readonly string[],
  recorded: readonly string[],
  versionReported: boolean,
): InvocationReport {
  const length = Math.max(intended.length, recorded.length);
  const tokens = Array.from({ length }, (_, index): TokenComparison => {
    const want = intended[index] ?? null;
    const got = recorded[index] ?? null;
    return { index, intended: want, recorded: got, equal: want === got };
  });
  return { recording, matched: tokens.every((token) => token.equal), versionReported, tokens };
}

/** Every recording compared with the argv the probe intended. */
export function reportInvocations(
  recordings: readonly Recording[],
  intended: readonly string[],
): InvocationReport[] {
  return recordings.map((r) => compareArgv(r.name, intended, r.argv, reportsVersion(r)));
}

/** probe-argv-mismatch, carrying the per-token report of every recorded invocation. */
export class ProbeArgvMismatchError extends ConflictError {
  readonly invocations: readonly InvocationReport[];

  constructor(invocations: readonly InvocationReport[]) {
    super('probe-argv-mismatch');
    this.invocations = invocations;
  }
}
