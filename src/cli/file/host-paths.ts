// The host path checks as the file-level commands run and report them: measured by the kit's
// own checker; vouched for only where the user said so and only for checks not performed.
import type { HookSpec } from '../../domain/hook-spec.js';
import { checkHostPaths } from '../../node/status/path-checks.js';
import type {
  HostPathCheck,
  HostPathChecker,
  HostPathReport,
} from '../../node/status/path-report.js';
import { blockingFs } from '../../node/write/fs-seam.js';

export interface HostPathsJSON {
  /** Every check was measured and passed. */
  readonly verified: boolean;
  /** The user vouched for the not-performed checks, and only that let the plan go ahead. */
  readonly vouched: boolean;
  readonly checks: readonly HostPathCheck[];
}

/** No check failed and at least one was not performed: what a user may vouch for. */
export function vouchable(report: HostPathReport): boolean {
  const statuses = report.checks.map((check) => check.status);
  return !statuses.includes('failed') && statuses.includes('not-performed');
}

/** Runs the kit's checks for runOperation and keeps what was measured, before any vouching. */
export class HostPathRun {
  private measured: HostPathReport | undefined;

  constructor(private readonly vouch: boolean) {}

  readonly checker: HostPathChecker = async (spec: HookSpec) => {
    const report = await checkHostPaths(spec, { fs: blockingFs });
    this.measured = report;
    return this.vouch && vouchable(report) ? { ...report, verified: true } : report;
  };

  json(): HostPathsJSON | null {
    return this.measured === undefined ? null : hostPathsJSON(this.measured, this.vouch);
  }
}

export function hostPathsJSON(report: HostPathReport, vouch: boolean): HostPathsJSON {
  return {
    verified: report.verified,
    vouched: vouch && vouchable(report),
    checks: report.checks,
  };
}

/** Readable lines: a count when all passed, else each failed or not-performed check. */
export function hostPathLines(paths: HostPathsJSON): string[] {
  const { checks } = paths;
  if (paths.verified) return [`host path checks: all ${checks.length} passed`];
  const open = checks.filter((check) => check.status !== 'passed');
  const failed = open.filter((check) => check.status === 'failed').length;
  const lines = [
    `host path checks: ${failed} failed, ${open.length - failed} not performed, ${checks.length - open.length} passed`,
    ...open.map(
      (check) =>
        `  ${check.status.padEnd(13)} ${check.role} ${check.check}: ${check.path}\n${' '.repeat(16)}${check.detail ?? ''}`,
    ),
  ];
  if (paths.vouched) {
    lines.push(
      '  VOUCHED: --vouch-unperformed-checks: you vouched for the checks not performed above',
    );
  }
  return lines;
}
