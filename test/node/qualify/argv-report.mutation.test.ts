// compareArgv and ProbeArgvMismatchError: the per-token report finish shows when Cursor ran the
// probe with other arguments than it was given, pinned token by token.
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../src/errors/errors.js';
import { compareArgv, ProbeArgvMismatchError } from '../../../src/node/qualify/argv-report.js';

describe('compareArgv', () => {
  it('an identical argv matches, every token equal (red: a faithful launch reported as a mismatch)', () => {
    expect(compareArgv('rec-1', ['a', '', 'b'], ['a', '', 'b'], true)).toEqual({
      recording: 'rec-1',
      matched: true,
      versionReported: true,
      tokens: [
        { index: 0, intended: 'a', recorded: 'a', equal: true },
        { index: 1, intended: '', recorded: '', equal: true },
        { index: 2, intended: 'b', recorded: 'b', equal: true },
      ],
    });
  });

  it('a token that never arrived is recorded null, the report as long as the intended argv (red: a dropped trailing token goes unseen)', () => {
    expect(compareArgv('rec-2', ['a', '', 'b'], ['a', 'b'], false)).toEqual({
      recording: 'rec-2',
      matched: false,
      versionReported: false,
      tokens: [
        { index: 0, intended: 'a', recorded: 'a', equal: true },
        { index: 1, intended: '', recorded: 'b', equal: false },
        { index: 2, intended: 'b', recorded: null, equal: false },
      ],
    });
  });

  it('an extra token is intended null, the report as long as the recorded argv (red: extra arguments match)', () => {
    expect(compareArgv('rec-3', ['a'], ['a', 'x', 'y'], true)).toEqual({
      recording: 'rec-3',
      matched: false,
      versionReported: true,
      tokens: [
        { index: 0, intended: 'a', recorded: 'a', equal: true },
        { index: 1, intended: null, recorded: 'x', equal: false },
        { index: 2, intended: null, recorded: 'y', equal: false },
      ],
    });
  });

  it('one differing token among equal ones makes the whole invocation unmatched (red: matched is some, not every)', () => {
    const report = compareArgv('rec-4', ['a', 'b', 'c'], ['a', 'B', 'c'], true);
    expect(report.matched).toBe(false);
    expect(report.tokens.map((token) => token.equal)).toEqual([true, false, true]);
  });

  it('two empty argvs match with no tokens (red: an empty comparison fails)', () => {
    expect(compareArgv('rec-5', [], [], true)).toEqual({
      recording: 'rec-5',
      matched: true,
      versionReported: true,
      tokens: [],
    });
  });
});

describe('ProbeArgvMismatchError', () => {
  it('is a ConflictError with reason probe-argv-mismatch carrying the reports (red: finish reports another reason or loses the report)', () => {
    const invocations = [compareArgv('rec-1', ['a'], ['b'], true)];
    const err = new ProbeArgvMismatchError(invocations);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.reason).toBe('probe-argv-mismatch');
    expect(err.invocations).toBe(invocations);
  });
});
