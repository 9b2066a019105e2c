// Windows refuses a rename or unlink for a moment while another process (an antivirus scanner,
// the search indexer, an editor) has the file open without FILE_SHARE_DELETE, and a deleted
// name lingers "delete pending" until its last handle closes (and refuses a link to it): EPERM,
// EACCES or EBUSY that go away by themselves. Retried with graceful-fs's growing delay, within a
// bound, by the kit's one retry policy (retry.ts). No Linux process can produce those states; the
// tests simulate them through the seam.
import { errnoOf } from '../errors.js';
import { retry } from './retry.js';

const TRANSIENT = new Set(['EPERM', 'EACCES', 'EBUSY']);

export interface RetryBounds {
  /** Stop retrying once this much time has passed; default 2 s (well inside the lock timeout). */
  readonly budgetMs?: number;
}

/** The seam's calls Windows refuses for a moment, as the seam declares them. */
interface Removing {
  rename(from: string, to: string): Promise<void>;
  link(existing: string, created: string): Promise<void>;
  unlink(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
}

/**
 * `fs` with rename, link, unlink and rmdir retried on Windows' transient refusals: the kit's one
 * retry of them (the lock's link and unlink included), never wrapped in another. Generic over the
 * seam, so this file needs nothing from fs-seam.ts, which wraps its own calls with it.
 */
export function windowsRetrying<Fs extends Removing>(fs: Fs, bounds: RetryBounds = {}): Fs {
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
  let failure: unknown;
  const done = await retry(
    // graceful-fs's schedule: 0 ms, then 10 ms more each time, up to 100 ms between tries.
    { budgetMs, firstMs: 0, grow: (ms) => ms + 10, capMs: 100, jitter: false },
    async () => {
      try {
        await step();
        return true;
      } catch (err) {
        const code = errnoOf(err);
        if (code === undefined || !TRANSIENT.has(code)) throw err;
        failure = err;
        return undefined;
      }
    },
  );
  if (done === undefined) throw failure;
}
