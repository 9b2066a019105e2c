// Taking a lock name: our owner record is staged in a side file and hard-linked to the name
// (the lock's, or a break file's), so the name appears atomically, complete, or not at all.
// Without hard links (FAT, exFAT, some network mounts) there is no lock: refused once,
// `lock-no-hard-links`.
import { dirname } from 'node:path';
import { asHostError, creatingIn, errnoOf, HostIOError } from '../errors.js';
import { sideFileName } from '../side-files/leftovers.js';
import { trackSideFile } from '../side-files/side-file-registry.js';
import { FLAGS, type FsSeam } from '../write/fs-seam.js';
import { isOwner, type LockOwner, readOwner } from './lock-record.js';

/** Our owner record ready in a staging file, linked to whatever name we take. */
export interface Claim {
  readonly realPath: string;
  readonly owner: LockOwner;
  readonly staging: string;
}

/** Errors of a link(2) on a file system that has no hard links. */
const NO_HARD_LINKS = new Set(['ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
/**
 * The same, only if a probe agrees: Linux says EPERM on vfat; Windows answers a FAT volume with
 * ERROR_INVALID_FUNCTION, which libuv reports as EISDIR. Either may also be about the name alone.
 */
const MAYBE_NO_HARD_LINKS = new Set(['EPERM', 'EISDIR']);

/**
 * Links the claim's staging file to `name`: true if taken, false if `name` exists (even as a
 * dangling link: link(2) never follows the new name). Windows' transient refusals are retried
 * by the seam, once, not here again.
 */
export async function take(claim: Claim, name: string, fs: FsSeam): Promise<boolean> {
  try {
    await fs.link(claim.staging, name);
    return true;
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'EEXIST') return false;
    const none =
      NO_HARD_LINKS.has(code ?? '') ||
      (MAYBE_NO_HARD_LINKS.has(code ?? '') && !(await linksWork(claim, fs)));
    if (none) {
      throw new HostIOError('lock-no-hard-links', code, { path: dirname(name), role: 'directory' });
    }
    throw asHostError(err);
  }
}

/**
 * Whether the staging file links to a fresh name. EPERM may mean no hard links (vfat) or, on
 * Windows, a lock name still being deleted: only the first also refuses a name nobody ever used.
 * A fallback lock (an exclusive create, then the record) was not chosen: its empty moment cannot be told from a foreign empty file, which would then have
 * to be waited for instead of refused.
 */
async function linksWork(claim: Claim, fs: FsSeam): Promise<boolean> {
  const probe = await sideFileName(claim.realPath, 'lock-tmp');
  const untrack = trackSideFile(probe);
  try {
    await fs.link(claim.staging, probe);
  } catch (err) {
    untrack();
    const code = errnoOf(err) ?? '';
    if (MAYBE_NO_HARD_LINKS.has(code) || NO_HARD_LINKS.has(code)) return false;
    throw asHostError(err);
  }
  try {
    await unlinkGone(probe, fs);
  } finally {
    untrack();
  }
  return true;
}

export async function unlinkGone(path: string, fs: FsSeam): Promise<void> {
  await fs.unlink(path).catch((err: unknown) => {
    if (errnoOf(err) !== 'ENOENT') throw asHostError(err);
  });
}

export async function writeStaging(path: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  // The first file any write makes beside its target: where a read-only directory shows.
  const handle = await fs.open(path, FLAGS.createExclusive, 0o644).catch((err: unknown) => {
    throw creatingIn(err, dirname(path));
  });
  try {
    await fs.write(handle, new TextEncoder().encode(`${JSON.stringify(owner)}\n`));
    // Flushed, so a lock surviving a power loss still names its (then dead) owner.
    await fs.fsync(handle);
  } catch (err) {
    throw asHostError(err);
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}

/**
 * The record at a lock or break name another holds; `lock-foreign` when it is not ours: no
 * cursorhooks process wrote it, so none will ever remove it, and it is not ours to remove.
 */
export async function ownerOrRefuse(path: string, fs: FsSeam): Promise<LockOwner | 'gone'> {
  const holder = await readOwner(path, fs);
  if (holder === 'foreign')
    throw new HostIOError('lock-foreign', undefined, { path, role: 'lock' });
  return holder;
}

/** Removes the record at `path` if it is still `owner`'s. */
export async function releaseFile(path: string, owner: LockOwner, fs: FsSeam): Promise<void> {
  const holder = await readOwner(path, fs);
  if (!isOwner(holder) || holder.nonce !== owner.nonce) return;
  await unlinkGone(path, fs);
}
