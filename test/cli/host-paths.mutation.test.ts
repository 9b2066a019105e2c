// The host path checks as the file-level commands report them: what may be vouched for, what the
// run keeps, its JSON and its lines, word for word. The kit's checker is replaced by one that
// returns the report the test sets, so every mix of passed, failed and not-performed is reached.
import { describe, expect, it, vi } from 'vitest';
import {
  HostPathRun,
  hostPathLines,
  hostPathsJSON,
  vouchable,
} from '../../src/cli/file/host-paths.js';
import type {
  CheckStatus,
  HostPathCheck,
  HostPathReport,
} from '../../src/node/status/path-report.js';

const next = vi.hoisted(() => ({ report: undefined as unknown }));

vi.mock('../../src/node/status/path-checks.js', () => ({
  checkHostPaths: async () => next.report,
}));

const check = (status: CheckStatus, n = 0): HostPathCheck => ({
  role: n % 2 === 0 ? 'executable' : 'selector',
  check: `check-${n}`,
  status,
  path: `/p/${n}`,
  ...(status === 'passed' ? {} : { detail: `detail ${n}` }),
});

const report = (...statuses: CheckStatus[]): HostPathReport => ({
  verified: statuses.every((status) => status === 'passed'),
  checks: statuses.map((status, n) => check(status, n)),
});

const SPEC = { executable: '/opt/agent', selector: '/etc/stop.json' };

describe('vouchable', () => {
  // Red: a failed check vouched for, or a report with nothing unperformed called vouchable.
  it.each([
    [[], false],
    [['passed'], false],
    [['not-performed'], true],
    [['passed', 'not-performed'], true],
    [['not-performed', 'passed'], true],
    [['failed'], false],
    [['not-performed', 'failed'], false],
    [['failed', 'not-performed'], false],
  ] as [CheckStatus[], boolean][])('%j -> %s', (statuses, expected) => {
    expect(vouchable(report(...statuses))).toBe(expected);
  });
});

describe('HostPathRun', () => {
  // Red: json() claiming a report before any check ran.
  it('has nothing to report before the checker ran', () => {
    expect(new HostPathRun(true).json()).toBeNull();
  });

  // Red: vouching turning a report verified without the flag, or for a failed check; the run
  // keeping the vouched report instead of the measured one.
  it.each([
    [true, ['passed', 'not-performed'], true, true],
    [false, ['passed', 'not-performed'], false, false],
    [true, ['not-performed', 'failed'], false, false],
    [true, ['passed'], true, false],
  ] as [boolean, CheckStatus[], boolean, boolean][])(
    'vouch %s on %j: the plan sees verified %s, the result says vouched %s',
    async (vouch, statuses, verified, vouched) => {
      const measured = report(...statuses);
      next.report = measured;
      const run = new HostPathRun(vouch);
      const seen = await run.checker(SPEC);
      expect(seen).toEqual({ ...measured, verified });
      expect(run.json()).toEqual({ verified: measured.verified, vouched, checks: measured.checks });
    },
  );
});

describe('hostPathsJSON', () => {
  // Red: `vouched` set without the flag, or when nothing was vouchable.
  it('says vouched only with the flag and something to vouch for', () => {
    const open = report('not-performed');
    expect(hostPathsJSON(open, true)).toEqual({
      verified: false,
      vouched: true,
      checks: open.checks,
    });
    expect(hostPathsJSON(open, false).vouched).toBe(false);
    expect(hostPathsJSON(report('failed'), true).vouched).toBe(false);
  });
});

describe('hostPathLines', () => {
  // Red: the all-passed line reworded or counting wrongly.
  it('counts the checks when all passed', () => {
    expect(
      hostPathLines({ verified: true, vouched: false, checks: report('passed', 'passed').checks }),
    ).toEqual(['host path checks: all 2 passed']);
  });

  // Red: the counts, the padding, the indent, the detail line or the vouched line wrong.
  it('lists each failed and not-performed check, then the vouching', () => {
    const checks = [
      check('passed', 0),
      check('failed', 1),
      check('not-performed', 2),
      check('passed', 3),
      { role: 'executable', check: 'check-4', status: 'not-performed', path: '/p/4' } as const,
      check('passed', 5),
    ];
    expect(hostPathLines({ verified: false, vouched: true, checks }).join('\n')).toBe(
      [
        'host path checks: 1 failed, 2 not performed, 3 passed',
        '  failed        selector check-1: /p/1',
        '                detail 1',
        '  not-performed executable check-2: /p/2',
        '                detail 2',
        '  not-performed executable check-4: /p/4',
        '                ',
        '  VOUCHED: --vouch-unperformed-checks: you vouched for the checks not performed above',
      ].join('\n'),
    );
  });

  // Red: the vouched line shown when the user did not vouch.
  it('says nothing of vouching when the user did not vouch', () => {
    expect(
      hostPathLines({ verified: false, vouched: false, checks: [check('failed', 1)] }),
    ).toEqual([
      'host path checks: 1 failed, 0 not performed, 0 passed',
      '  failed        selector check-1: /p/1\n                detail 1',
    ]);
  });
});
