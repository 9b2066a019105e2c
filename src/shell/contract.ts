import type { ServiceIdentifier } from 'inversify';

export type PathRole = 'executable' | 'selector';

export interface QualifyingArtifact {
  /** What the hash is of, e.g. "official archive" or "index.js". */
  readonly name: string;
  /** Lowercase hex SHA-256 as recorded by the qualifying run. */
  readonly sha256: string;
}

/**
 * What a qualifying run established, kept as data so hosts can show it. Evidence is
 * documentation only: it never widens what a contract's grammar accepts.
 * `null` marks a fact the qualifying note did not record.
 */
export interface QualificationEvidence {
  readonly client: string;
  readonly version: string;
  readonly platform: string;
  readonly arch: string | null;
  readonly date: string | null;
  readonly run: string | null;
  readonly observed: readonly string[];
  readonly notObserved: readonly string[];
  readonly artifacts: readonly QualifyingArtifact[];
}

/**
 * A qualified argv grammar for one client version on one platform. Both methods throw
 * `UnsupportedError` (with a fixed reason) for anything outside the grammar.
 */
export interface ShellContract {
  readonly id: string;
  readonly evidence: QualificationEvidence;
  /**
   * The grammar family it renders (`grammarFamilies()`): every built-in and every qualified
   * contract names one; a host's own plugin may leave it out.
   */
  readonly family?: string;
  assertCanonicalPath(path: string, role: PathRole): void;
  render(argv: readonly string[]): string;
}

/** Multi-bound service identifier for ShellContract plugins. */
export const SHELL_CONTRACT: ServiceIdentifier<ShellContract> = Symbol.for(
  'cursorhooks.ShellContract',
);
