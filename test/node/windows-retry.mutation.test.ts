// The Windows retry's edges through a fake seam: which calls are wrapped, which codes retry, the
// default budget, and what is thrown when a failure carries no errno code. No real waiting beyond
// the backoff's few tens of milliseconds.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FsSeam } from '../../src/node/write/fs-seam.js';
import { nodeFs } from '../../src/node/write/fs-seam.js';
import { windowsRetrying } from '../../src/node/write/windows-retry.js';
import { errno } from './support.js';

/** A seam whose rename, unlink, rmdir and link fail with `failure` the first `times` calls each. */
function failingFirst(failure: () => unknown, times: number) {
  const calls: string[] = [];
  const step =
    (name: string) =>
    async (..._args: unknown[]): Promise<void> => {
      calls.push(name);
      if (calls.filter((c) => c === name).length <= times) throw failure();
    };
  const fs: FsSeam = {
    ...nodeFs,
    rename: step('rename'),
    unlink: step('unlink'),
    rmdir: step('rmdir'),
    link: step('link'),
  };
  return { fs, calls };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('windowsRetrying', () => {
  it('retries rmdir too (red: a probe directory delete-pending fails the probe)', async () => {
    const { fs, calls } = failingFirst(() => errno('EBUSY'), 2);
    await windowsRetrying(fs).rmdir('/nowhere');
    expect(calls).toEqual(['rmdir', 'rmdir', 'rmdir']);
  });

  it('passes rename its both paths (red: the retried rename loses an argument)', async () => {
    const seen: unknown[][] = [];
    const fs: FsSeam = {
      ...nodeFs,
      rename: async (...args: unknown[]) => {
        seen.push(args);
      },
      unlink: async (...args: unknown[]) => {
        seen.push(args);
      },
      rmdir: async (...args: unknown[]) => {
        seen.push(args);
      },
    } as FsSeam;
    const retrying = windowsRetrying(fs);
    await retrying.rename('/a', '/b');
    await retrying.unlink('/c');
    await retrying.rmdir('/d');
    expect(seen).toEqual([['/a', '/b'], ['/c'], ['/d']]);
  });

  it('retries link, passing both paths, and leaves every other call unwrapped (red: a lock name still delete-pending fails the lock, or open is replaced)', async () => {
    const { fs, calls } = failingFirst(() => errno('EPERM'), 1);
    await windowsRetrying(fs).link('/a', '/b');
    expect(calls).toEqual(['link', 'link']);
    const seen: unknown[][] = [];
    const recording = { ...nodeFs, link: async (...args: unknown[]) => void seen.push(args) };
    await windowsRetrying(recording as FsSeam).link('/a', '/b');
    expect(seen).toEqual([['/a', '/b']]);
    expect(windowsRetrying(fs).open).toBe(fs.open);
  });

  it('throws a failure without an errno code at once (red: any error is retried until the budget)', async () => {
    const bug = new Error('not a system error');
    const { fs, calls } = failingFirst(() => bug, Number.POSITIVE_INFINITY);
    await expect(windowsRetrying(fs).unlink('/x')).rejects.toBe(bug);
    expect(calls).toEqual(['unlink']);
  });

  it('keeps retrying for well over 50 ms by default (red: the default budget is zero or tiny)', async () => {
    // Five failures take 0+10+20+30+40 = 100 ms of backoff, inside the 2 s default.
    const { fs, calls } = failingFirst(() => errno('EACCES'), 5);
    await windowsRetrying(fs).unlink('/x');
    expect(calls).toHaveLength(6);
  });

  it('gives up after 2 s by default (red: without a budget it retries forever)', async () => {
    // The clock jumps 600 ms a look: at 2400 ms (the fourth failure) the budget is spent.
    let now = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 600));
    const { fs, calls } = failingFirst(() => errno('EBUSY'), 10);
    await expect(windowsRetrying(fs).unlink('/x')).rejects.toMatchObject({ code: 'EBUSY' });
    expect(calls).toHaveLength(4);
  });

  it('counts the next backoff (0, 10, 20, 30 ms) against the budget, strictly (red: the schedule or the bound changes)', async () => {
    // A clock that never moves: only the backoff spends the 20 ms budget, and 30 > 20 stops it.
    vi.spyOn(Date, 'now').mockReturnValue(1_000);
    const { fs, calls } = failingFirst(() => errno('EPERM'), 10);
    await expect(windowsRetrying(fs, { budgetMs: 20 }).unlink('/x')).rejects.toMatchObject({
      code: 'EPERM',
    });
    expect(calls).toHaveLength(4);
  });

  it('caps the backoff at 100 ms (red: the delay keeps growing, or never grows)', async () => {
    // With a frozen clock and a 105 ms budget, tries go on while the capped backoff (100) fits.
    vi.spyOn(Date, 'now').mockReturnValue(1_000);
    const { fs, calls } = failingFirst(() => errno('EPERM'), 12);
    await windowsRetrying(fs, { budgetMs: 105 }).unlink('/x');
    expect(calls).toHaveLength(13);
  });

  it.each(['EPERM', 'EACCES', 'EBUSY'])(
    'retries %s in a freshly loaded module (red: the transient set loses the code)',
    async (code) => {
      vi.resetModules();
      const fresh = await import('../../src/node/write/windows-retry.js');
      const { fs, calls } = failingFirst(() => errno(code), 1);
      await fresh.windowsRetrying(fs).unlink('/x');
      expect(calls).toEqual(['unlink', 'unlink']);
    },
  );
});
