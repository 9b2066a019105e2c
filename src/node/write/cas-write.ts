// The exact-bytes compare-and-swap writer of SPEC §11. Modelled on npm's write-file-atomic
// (realpath first, temp file beside the real target, mode and owner copied, fsync, rename, one
// `finally` that removes the temp file); not write-file-atomic itself, which has no
// compare-and-swap, no directory fsync and no lock.
import { dirname } from 'node:path';
import { MAX_DOCUMENT_BYTES } from '../../limits.js';
import {
  aboutFile,
  creatingIn,
  errnoOf,
  FileChangedError,
  type FileRole,
  HostIOError,
} from '../errors.js';
import { assertLockHeld, heldLockOf, withSweptLock } from '../lock/lock.js';
import { sideFileName } from '../side-files/leftovers.js';
import { trackSideFile } from '../side-files/side-file-registry.js';
import { equalBytes } from './bytes.js';
import { FLAGS, type FsSeam, nodeFs } from './fs-seam.js';
import { foreignWrite } from './in-place.js';
import { copyMetadata } from './metadata.js';
import {
  type FileSnapshot,
  type HeldFile,
  isReadOnly,
  openSnapshot,
  readFileSnapshot,
} from './read.js';

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
  /**
   * Flush the directory after the rename (default true). A write whose durability a later
   * flush of the same directory provides (the ledger's commit) may skip it.
   */
  readonly syncDirectory?: boolean;
  /**
   * Replace an existing file even where the writer cannot see its ACLs and extended attributes
   * (the native module does not load), which are then lost; default false: refused.
   */
  readonly acceptMetadataLoss?: boolean;
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
  return withSweptLock(
    path,
    () => compareAndSwap(path, expected, desired, options),
    lockOptions(options),
  );
}

/**
 * The swap itself; the caller holds the target's lock. The file is at every moment either its
 * old bytes or `desired`: the new bytes reach the target only by one rename. Throws
 * FileChangedError when the file is not `expected`, or when a write in place landed in the old
 * file during the swap (those bytes are put back first); readback-mismatch when they cannot be.
 */
export async function compareAndSwap(
  path: string,
  expected: Expected,
  desired: Uint8Array,
  options: WriteOptions = {},
): Promise<FileSnapshot> {
  const role = options.role ?? 'hook-file';
  try {
    const swapped = await swapOnce(path, expected, desired, options);
    if (swapped.foreign === undefined) return swapped.after;
    await putBack(path, swapped.after, swapped.foreign, options);
    throw new FileChangedError();
  } catch (err) {
    throw aboutFile(err, role, expected.realPath);
  }
}

/**
 * The foreign bytes our rename hid go back by the same temp+rename path, so the user's save
 * survives and the caller re-plans. If the file moved on again, or the bytes are too many to
 * have been read whole, the caller must decide by what the file holds: readback-mismatch.
 */
async function putBack(
  path: string,
  ours: FileSnapshot,
  foreign: Uint8Array,
  options: WriteOptions,
): Promise<void> {
  if (foreign.length > MAX_DOCUMENT_BYTES) throw new HostIOError('readback-mismatch');
  try {
    const restored = await swapOnce(path, ours, foreign, options);
    if (restored.foreign !== undefined) throw new HostIOError('readback-mismatch');
  } catch (err) {
    if (err instanceof FileChangedError) throw new HostIOError('readback-mismatch');
    throw err;
  }
}

/**
 * One temp+rename. The first read gives the mode, owner and attributes to copy and fails
 * early; the second, after the temp file is flushed, is the compare that guards the rename,
 * and its file stays open to catch a write in place after it. Left undetected: a foreign
 * rename onto the path, or a file created where there was none, between that compare and our
 * rename (their inode is gone once ours lands), and a write in place that starts after the
 * re-check (see in-place.ts). Under the lock, the lock is confirmed ours right before the rename
 * and right after it: `lock-lost`.
 */
async function swapOnce(
  path: string,
  expected: Expected,
  desired: Uint8Array,
  options: WriteOptions,
): Promise<{ after: FileSnapshot; foreign: Uint8Array | undefined }> {
  const fs = options.fs ?? nodeFs;
  const current = await readFileSnapshot(path, fs, NO_SETTLE);
  if (!sameFile(current, expected)) throw new FileChangedError();
  refuseUnreplaceable(current);
  const { realPath } = current;
  // Held by this call chain, as every writer of the kit holds it; a bare compareAndSwap has none.
  const lock = heldLockOf(realPath);
  const directory = dirname(realPath);
  const temp = await sideFileName(realPath, 'tmp');
  let handle: Awaited<ReturnType<FsSeam['open']>> | undefined;
  let held: HeldFile | undefined;
  let renamed = false;
  let foreign: Uint8Array | undefined;
  // Tracked from before it exists, so an interrupt handler removes it whenever it is there.
  const untrack = trackSideFile(temp);
  try {
    const mode = current.mode ?? options.newFileMode ?? DEFAULT_NEW_FILE_MODE;
    handle = await fs.open(temp, FLAGS.createExclusive, mode).catch((err: unknown) => {
      throw creatingIn(err, directory);
    });
    // Owner first: a chown by root clears set-id bits, so the mode is set after it. The umask
    // narrows the open mode; an existing file's mode is copied exactly.
    await copyOwner(handle, current, fs);
    if (current.mode !== undefined) await fs.fchmod(handle, current.mode);
    await fs.write(handle, desired);
    // After the mode: setting an ACL sets the group bits to its mask, which chmod would reset.
    if (current.exists) await copyMetadata(realPath, temp, fs, options);
    await fs.fsync(handle);
    const closing = handle;
    handle = undefined;
    await fs.close(closing);
    // Compared again right before the rename: a foreign write while the temp file was being
    // written is caught here.
    const compared = await openSnapshot(path, fs);
    held = compared.held;
    if (!sameFile(compared.snapshot, expected)) throw new FileChangedError();
    // Windows may refuse to replace a file that is open; there the in-place check is given up.
    if (held !== undefined && process.platform === 'win32') {
      await fs.close(held.handle);
      held = undefined;
    }
    // A holder stopped past its lease may have lost the lock to a waiter that wrote since: it
    // must not rename over that write, and one lost during the rename is reported, never done.
    if (lock !== undefined) await assertLockHeld(realPath, lock, fs);
    await fs.rename(temp, realPath);
    renamed = true;
    if (lock !== undefined) await assertLockHeld(realPath, lock, fs);
    if (options.syncDirectory !== false) await inDirectory(syncDirectory(directory, fs), directory);
    if (held !== undefined) foreign = await foreignWrite(held, expected.bytes, fs);
  } finally {
    if (handle !== undefined) await fs.close(handle).catch(() => undefined);
    if (held !== undefined) await fs.close(held.handle).catch(() => undefined);
    if (!renamed) await fs.unlink(temp).catch(() => undefined);
    untrack();
  }
  const after = await readFileSnapshot(path, fs, NO_SETTLE);
  if (after.realPath !== realPath || !equalBytes(after.bytes, desired)) {
    throw new HostIOError('readback-mismatch');
  }
  return { after, foreign };
}

/** A failure to create or flush in the directory names the directory: that is what to change. */
function inDirectory<T>(step: Promise<T>, directory: string): Promise<T> {
  return step.catch((err: unknown) => {
    throw aboutFile(err, 'directory', directory);
  });
}

/**
 * Refused rather than replaced: the rename would give this name new bytes and leave every other
 * link with the old ones, a split nobody sees. Writing in place would keep the links but lose
 * the old-or-new guarantee, so a shared file must be a symlink (followed and kept) instead.
 */
export function refuseUnreplaceable(snapshot: Pick<FileSnapshot, 'links' | 'mode'>): void {
  if (snapshot.links !== undefined && snapshot.links > 1) throw new HostIOError('file-hard-linked');
  // A rename would replace it whatever its mode: the user's "read-only" is honoured here instead.
  if (isReadOnly(snapshot)) throw new HostIOError('file-read-only');
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
export async function syncDirectory(directory: string, fs: FsSeam): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(directory, FLAGS.directory);
  try {
    await fs.fsync(handle);
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}
