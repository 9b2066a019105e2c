// The exact-bytes compare-and-swap writer of SPEC §11. Modelled on npm's write-file-atomic
// (realpath first, temp file beside the real target, mode and owner copied, fsync, rename, one
// `finally` that removes the temp file); not write-file-atomic itself, which has no
// compare-and-swap, no directory fsync and no lock.
import { dirname } from 'node:path';
import { equalBytes } from './bytes.js';
import { aboutFile, errnoOf, FileChangedError, type FileRole, HostIOError } from './errors.js';
import { FLAGS, type FsSeam, nodeFs } from './fs-seam.js';
import { removeLeftovers, sideFileName } from './leftovers.js';
import { withTargetLock } from './lock.js';
import { copyMetadata } from './metadata.js';
import { type FileSnapshot, readFileSnapshot } from './read.js';

/** What a plan was made from: where the file really was, and its exact bytes or absence. */
export type Expected = Pick<FileSnapshot, 'realPath' | 'exists' | 'bytes'>;

export interface WriteOptions {
  readonly fs?: FsSeam;
  /**
   * Mode of a file that did not exist, before the umask. Default 0o644, what Cursor and editors
   * create: the hook file is configuration, not a secret. An existing file keeps its own mode.
   */
  readonly newFileMode?: number;
  /** How long to wait for another kit writer's lock; default 10 s. */
  readonly lockTimeoutMs?: number;
  /** What the file is, for the failures that name it; default the hook file. */
  readonly role?: FileRole;
}

const DEFAULT_NEW_FILE_MODE = 0o644;
// The plan already took its second look at an empty file; an in-place writer that starts now
// is caught by the check after the rename.
const NO_SETTLE = { emptySettleMs: 0 } as const;

/**
 * Takes the lock beside the real target, clears side files of killed writers, then swaps.
 * Throws FileChangedError (nothing written) when the file is no longer `expected`.
 */
export async function writeHookFile(
  path: string,
  expected: Expected,
  desired: Uint8Array,
  options: WriteOptions = {},
): Promise<FileSnapshot> {
  const fs = options.fs ?? nodeFs;
  return withTargetLock(
    path,
    async (realPath) => {
      await removeLeftovers(realPath, fs);
      return compareAndSwap(path, expected, desired, options);
    },
    lockOptions(options),
  );
}

/**
 * The swap itself; the caller holds the target's lock. The file is at every moment either its
 * old bytes or `desired`: the new bytes reach the target only by one rename. The first read
 * gives the mode and owner to copy and fails early; the second, after the temp file is flushed,
 * is the compare that guards the rename.
 */
export async function compareAndSwap(
  path: string,
  expected: Expected,
  desired: Uint8Array,
  options: WriteOptions = {},
): Promise<FileSnapshot> {
  const fs = options.fs ?? nodeFs;
  const current = await readFileSnapshot(path, fs, NO_SETTLE);
  if (!sameFile(current, expected)) throw new FileChangedError();
  refuseHardLinked(current);
  const { realPath } = current;
  const temp = sideFileName(realPath, 'tmp');
  let handle: Awaited<ReturnType<FsSeam['open']>> | undefined;
  let renamed = false;
  try {
    const mode = current.mode ?? options.newFileMode ?? DEFAULT_NEW_FILE_MODE;
    handle = await fs.open(temp, FLAGS.createExclusive, mode);
    // Owner first: a chown by root clears set-id bits, so the mode is set after it. The umask
    // narrows the open mode; an existing file's mode is copied exactly.
    await copyOwner(handle, current, fs);
    if (current.mode !== undefined) await fs.fchmod(handle, current.mode);
    await fs.write(handle, desired);
    // After the mode: setting an ACL sets the group bits to its mask, which chmod would reset.
    if (current.exists) await copyMetadata(realPath, temp, fs);
    await fs.fsync(handle);
    const closing = handle;
    handle = undefined;
    await fs.close(closing);
    // Compared again right before the rename: a foreign write while the temp file was being
    // written is caught here, leaving only the rename itself as the unguarded instant.
    if (!sameFile(await readFileSnapshot(path, fs, NO_SETTLE), expected))
      throw new FileChangedError();
    await fs.rename(temp, realPath);
    renamed = true;
    await syncDirectory(dirname(realPath), fs);
  } catch (err) {
    throw aboutFile(err, options.role ?? 'hook-file', realPath);
  } finally {
    if (handle !== undefined) await fs.close(handle).catch(() => undefined);
    if (!renamed) await fs.unlink(temp).catch(() => undefined);
  }
  const after = await readFileSnapshot(path, fs, NO_SETTLE);
  if (after.realPath !== realPath || !equalBytes(after.bytes, desired)) {
    throw new HostIOError('readback-mismatch');
  }
  return after;
}

/**
 * Refused rather than replaced: the rename would give this name new bytes and leave every other
 * link with the old ones, a split nobody sees. Writing in place would keep the links but lose
 * the old-or-new guarantee, so a shared file must be a symlink (followed and kept) instead.
 */
export function refuseHardLinked(snapshot: Pick<FileSnapshot, 'links'>): void {
  if (snapshot.links !== undefined && snapshot.links > 1) throw new HostIOError('file-hard-linked');
}

export function lockOptions(options: WriteOptions): { fs?: FsSeam; timeoutMs?: number } {
  return {
    ...(options.fs === undefined ? {} : { fs: options.fs }),
    ...(options.lockTimeoutMs === undefined ? {} : { timeoutMs: options.lockTimeoutMs }),
  };
}

/** Same real target, same presence, same bytes: absent and empty are different files. */
export function sameFile(current: Expected, expected: Expected): boolean {
  return (
    current.realPath === expected.realPath &&
    current.exists === expected.exists &&
    equalBytes(current.bytes, expected.bytes)
  );
}

export { equalBytes };

/**
 * Gives the temp file the target's owner where permitted (as root). Refused is fine: EPERM
 * unprivileged, EINVAL where the file system cannot represent the id (some network mounts).
 */
async function copyOwner(
  handle: Awaited<ReturnType<FsSeam['open']>>,
  current: FileSnapshot,
  fs: FsSeam,
): Promise<void> {
  if (current.uid === undefined || current.gid === undefined) return;
  const own = await fs.fstat(handle);
  if (own.uid === current.uid && own.gid === current.gid) return;
  await fs.fchown(handle, current.uid, current.gid).catch((err: unknown) => {
    const code = errnoOf(err);
    if (code !== 'EPERM' && code !== 'EINVAL') throw err;
  });
}

/** Makes the rename durable. Windows cannot open a directory for flushing; it is skipped there. */
async function syncDirectory(directory: string, fs: FsSeam): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(directory, FLAGS.directory);
  try {
    await fs.fsync(handle);
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}
