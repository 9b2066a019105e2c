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
    // The monotonic clock jumps 600 ms a look: at 2400 ms (the fourth failure) the budget is spent.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 600));
    const { fs, calls } = failingFirst(() => errno('EBUSY'), 10);
    await expect(windowsRetrying(fs).unlink('/x')).rejects.toMatchObject({ code: 'EBUSY' });
    expect(calls).toHaveLength(4);
  });

  /** windowsRetrying loaded afresh with its pauses recorded, each moving a fake clock on. */
  async function withRecordedPauses() {
    const pauses: number[] = [];
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    vi.resetModules();
    vi.doMock('../../src/node/write/sleep.js', () => ({
      sleep: async (ms: number) => {
        pauses.push(ms);
        now += ms;
      },
    }));
    const { windowsRetrying: fresh } = await import('../../src/node/write/windows-retry.js');
    return { pauses, fresh };
  }

  afterEach(() => {
    vi.doUnmock('../../src/node/write/sleep.js');
    vi.resetModules();
  });

  it("pauses 0, 10, 20 … ms, 10 more each time, capped at 100 (red: graceful-fs's schedule or its cap changes)", async () => {
    const { pauses, fresh } = await withRecordedPauses();
    const { fs, calls } = failingFirst(() => errno('EPERM'), 12);
    await fresh(fs).unlink('/x');
    expect(calls).toHaveLength(13);
    expect(pauses).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 100]);
  });

  it('cuts the last pause to what is left of the budget, then gives up (red: a pause runs past the budget, or tries go on after it)', async () => {
    // Budget 25: pauses 0 and 10, then 15 of the scheduled 20, and the fourth failure is final.
    const { pauses, fresh } = await withRecordedPauses();
    const { fs, calls } = failingFirst(() => errno('EPERM'), 10);
    await expect(fresh(fs, { budgetMs: 25 }).unlink('/x')).rejects.toMatchObject({
      code: 'EPERM',
    });
    expect(pauses).toEqual([0, 10, 15]);
    expect(calls).toHaveLength(4);
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
