// The qualification state directory belongs to the user alone: owned by them, mode 0700, and
// holding at each of the kit's names only what the kit makes there. Every step checks it first:
// a link planted at one of those names would otherwise turn cancel's clean-up into a deletion,
// and start's saved copy into a write, of whatever file the link names.
import path from 'node:path';
import { aboutFile, errnoOf, HostIOError, isBug } from '../errors.js';
import type { FsSeam } from '../write/fs-seam.js';
import type { StateEntry } from './layout.js';

const PRIVATE_DIRECTORY = 0o700;
const OPEN_TO_OTHERS = 0o077;

/**
 * Creates the state directory 0o700 if it is missing, then refuses `state-dir-unsafe` unless it
 * is a directory owned by this user that neither group nor others can open. `create: false`:
 * a missing directory is left missing (status only reads).
 */
export async function checkStateDir(
  stateDir: string,
  fs: FsSeam,
  { create }: { create: boolean },
): Promise<void> {
  const root = path.resolve(stateDir);
  if (create) {
    await fs.mkdir(root, PRIVATE_DIRECTORY).catch(about(root));
  }
  let stats: Awaited<ReturnType<FsSeam['lstat']>>;
  try {
    // The directory itself may be reached through a link of the user's; what is in it may not.
    stats = await fs.lstat(await fs.realpath(root));
  } catch (err) {
    if (!create && errnoOf(err) === 'ENOENT') return;
    return about(root)(err);
  }
  const uid = process.getuid?.();
  // Windows: access is an ACL Node cannot read, and the mode bits are not it.
  const privateHere =
    uid === undefined || (stats.uid === uid && (stats.mode & OPEN_TO_OTHERS) === 0);
  if (!stats.isDirectory() || !privateHere) {
    throw new HostIOError('state-dir-unsafe', undefined, { path: root, role: 'probe' });
  }
}

/** Refuses `state-entry-unsafe` at the first name holding something the kit does not make there. */
export async function checkStateEntries(entries: readonly StateEntry[], fs: FsSeam): Promise<void> {
  for (const entry of entries) {
    let stats: Awaited<ReturnType<FsSeam['lstat']>>;
    try {
      stats = await fs.lstat(entry.path);
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') continue;
      return about(entry.path)(err);
    }
    const fits =
      (entry.kind === 'file' && stats.isFile()) ||
      (entry.kind === 'directory' && stats.isDirectory());
    if (!fits) {
      throw new HostIOError('state-entry-unsafe', undefined, { path: entry.path, role: 'probe' });
    }
  }
}

/** A failure names the path; a bug passes through as the bug it is. */
function about(path: string): (err: unknown) => never {
  return (err) => {
    throw isBug(err) ? err : aboutFile(err, 'probe', path);
  };
}
