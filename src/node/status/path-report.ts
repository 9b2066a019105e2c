// The shape of the host path checks' result (SPEC §11). The checks themselves live in
// path-checks.ts; the operation runner and the CLI read only this shape.
import type { HookSpec } from '../../domain/hook-spec.js';

/** Which spec path a check is about. */
export type PathRole = 'executable' | 'selector';

/**
 * `not-performed` means the property was not measured: the platform did not let Node (Windows
 * ACLs, no numeric uid), or an earlier check on the same path failed (a relative path, a symlinked
 * parent, a missing file). It never counts as passed.
 */
export type CheckStatus = 'passed' | 'failed' | 'not-performed';

export interface HostPathCheck {
  readonly role: PathRole;
  /** A stable kebab-case check name, e.g. `parent-not-writable-by-others` (`PathCheckName`). */
  readonly check: string;
  readonly status: CheckStatus;
  /** The path the check looked at (the host's own value: a spec path or one of its parents). */
  readonly path: string;
  /** A fixed sentence saying what was wrong or why the check could not run; absent when passed. */
  readonly detail?: string;
}

export interface HostPathReport {
  /** True exactly when every check passed: what `executableVerified` may honestly claim. */
  readonly verified: boolean;
  readonly checks: readonly HostPathCheck[];
}

/** Runs the checks for one spec; never throws for a failed check, only reports it. */
export type HostPathChecker = (spec: HookSpec) => Promise<HostPathReport>;

/** The check that kept a report from being verified: the first failed, else the first not performed. */
export function decidingCheck(report: HostPathReport | undefined): HostPathCheck | undefined {
  const checks = report?.checks ?? [];
  return (
    checks.find((check) => check.status === 'failed') ??
    checks.find((check) => check.status === 'not-performed')
  );
}
