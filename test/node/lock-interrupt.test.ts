// An interrupted process leaves none of its side files and still dies by the signal; the lock
// name's transient Windows errors (delete-pending, a scanner's open handle) are retried.
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostIOError } from '../../src/node/errors.js';
import { withLock } from '../../src/node/lock/lock.js';
import { lockPathOf } from '../../src/node/side-files/leftovers.js';
import {
  removeTrackedSideFiles,
  trackLockFile,
  trackSideFile,
} from '../../src/node/side-files/side-file-registry.js';
import { windowsRetrying } from '../../src/node/write/windows-retry.js';
import type { HoldLockJob } from './child/hold-lock.js';
import { buildChild } from './child/spawn.js';
import { errno, strays, tempDir, wrapSeam } from './support.js';

let child: { script: string; dispose: () => void };
beforeAll(async () => {
  child = await buildChild('hold-lock');
}, 60_000);
afterAll(() => child.dispose());

/** Runs the lock child, sends `signal` once `ready(dir)` holds; resolves how it ended. */
function interrupted(
  job: HoldLockJob,
  signal: NodeJS.Signals,
  ready: (names: readonly string[]) => boolean,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const proc = spawn(process.execPath, [child.script, JSON.stringify(job)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const dir = join(job.target, '..');
  const poll = setInterval(() => {
    if (ready(readdirSync(dir))) {
      clearInterval(poll);
      proc.kill(signal);
    }
  }, 5);
  return new Promise((resolve) =>
    proc.on('exit', (code, sig) => {
      clearInterval(poll);
      resolve({ code, signal: sig });
    }),
  );
}

const staging = (names: readonly string[]): boolean =>
  names.some((name) => name.includes('.cursorhooks-lock-'));

describe('an interrupt removes this process side files', () => {
  // Red before: Ctrl-C while waiting for the lock left the waiter's staging file behind.
  it('a waiter sent SIGINT leaves no staging file and dies by SIGINT', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const ended = await withLock(target, () =>
      interrupted({ target, mode: 'wait', interrupt: true }, 'SIGINT', staging),
    );
    expect(ended).toEqual({ code: null, signal: 'SIGINT' });
    expect(strays(dir)).toEqual([]);
  }, 20_000);

  // Red if held locks were not tracked: a SIGTERMed holder left its lock for the lease to clear.
  it('a holder sent SIGTERM removes its lock and dies by SIGTERM', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const ended = await interrupted(
      { target, mode: 'hold', interrupt: true },
      'SIGTERM',
      (names) => names.includes('hooks.json.cursorhooks-lock') && !staging(names),
    );
    expect(ended).toEqual({ code: null, signal: 'SIGTERM' });
    expect(strays(dir)).toEqual([]);
  }, 20_000);

  // Red if the registry forgot others' files or removed a lock another process took meanwhile.
  it('removes tracked files, forgets untracked ones, and never a lock no longer ours', async () => {
    const dir = tempDir();
    const kept = join(dir, 'kept.tmp');
    const removed = join(dir, 'removed.tmp');
    const taken = join(dir, 'taken.lock');
    for (const path of [kept, removed]) writeFileSync(path, '');
    writeFileSync(taken, '{"nonce":"theirs"}');
    trackSideFile(kept)();
    trackSideFile(removed);
    trackLockFile(taken, 'ours');
    expect(removeTrackedSideFiles()).toBe(1);
    expect(strays(dir).sort()).toEqual(['kept.tmp', 'taken.lock']);
  });
});

describe('transient errors on the lock name', () => {
  // Red before: a lock name still delete-pending on Windows (EPERM on link, EBUSY on unlink)
  // aborted the run with permission-denied instead of being retried.
  it('retries link and unlink of the lock name failing EPERM, EACCES or EBUSY for a while, through the Windows seam', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const lockPath = lockPathOf(target);
    const failures: Array<[string, string]> = [
      ['link', 'EPERM'],
      ['link', 'EACCES'],
      ['unlink', 'EBUSY'],
    ];
    const fs = windowsRetrying(
      wrapSeam((call, path) => {
        const at = failures.findIndex(([name]) => name === call);
        const aboutLock = call === 'link' || path === lockPath;
        if (at >= 0 && aboutLock) throw errno((failures.splice(at, 1)[0] as [string, string])[1]);
      }),
    );
    expect(await withLock(target, async () => 'entered', { fs })).toBe('entered');
    expect(failures).toEqual([]);
    expect(strays(dir)).toEqual([]);
  });

  // Red if the retry were unbounded: a real permission problem would hang instead of failing.
  it('gives up on a lasting EACCES with permission-denied, leaving nothing', async () => {
    const dir = tempDir();
    const target = join(dir, 'hooks.json');
    const fs = wrapSeam((call) => {
      if (call === 'link') throw errno('EACCES');
    });
    const began = performance.now();
    const err = await withLock(target, async () => 'entered', { fs }).catch((e: unknown) => e);
    expect(performance.now() - began).toBeLessThan(3_000);
    expect((err as HostIOError).reason).toBe('permission-denied');
    expect(strays(dir)).toEqual([]);
  });
});
