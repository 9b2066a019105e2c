// Windows refuses a rename or unlink for a moment while another process (an antivirus scanner,
// the search indexer, an editor) has the file open without FILE_SHARE_DELETE, and a deleted
// name lingers "delete pending" until its last handle closes (and refuses a link to it): EPERM,
// EACCES or EBUSY that go away by themselves. Retried with a growing delay, as graceful-fs does,
// within a bound. No Linux process can produce those states; the tests simulate them through
// the seam.
import { errnoOf } from '../errors.js';
import type { FsSeam } from './fs-seam.js';
import { sleep } from './sleep.js';

const TRANSIENT = new Set(['EPERM', 'EACCES', 'EBUSY']);

export interface RetryBounds {
  /** Stop retrying once this much time has passed; default 2 s (well inside the lock timeout). */
  readonly budgetMs?: number;
}

/**
 * `fs` with rename, link, unlink and rmdir retried on Windows' transient refusals: the kit's one
 * retry of them (the lock's link and unlink included), never wrapped in another.
 */
export function windowsRetrying(fs: FsSeam, bounds: RetryBounds = {}): FsSeam {
  const budgetMs = bounds.budgetMs ?? 2000;
  return {
    ...fs,
    rename: (from, to) => retried(() => fs.rename(from, to), budgetMs),
    // A lock name still delete-pending refuses a new link to it.
    link: (existing, created) => retried(() => fs.link(existing, created), budgetMs),
    unlink: (path) => retried(() => fs.unlink(path), budgetMs),
    rmdir: (path) => retried(() => fs.rmdir(path), budgetMs),
  };
}

async function retried(step: () => Promise<void>, budgetMs: number): Promise<void> {
  const start = Date.now();
  // graceful-fs's schedule: 0 ms, then 10 ms more each time, up to 100 ms between tries.
  for (let backoff = 0; ; backoff = Math.min(backoff + 10, 100)) {
    try {
      return await step();
    } catch (err) {
      const code = errnoOf(err);
      if (code === undefined || !TRANSIENT.has(code) || Date.now() - start + backoff > budgetMs)
        throw err;
    }
    await sleep(backoff);
  }
}
