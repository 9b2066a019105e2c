// Reading a locked target again under its lock: the path must still name the file locked.
import { TargetMovedError } from '../errors.js';
import type { FsSeam } from '../write/fs-seam.js';
import { type FileSnapshot, type ReadOptions, readFileSnapshot } from '../write/read.js';

/** Reads `path` under the lock of `realPath`; TargetMovedError if it names another file now. */
export async function readLocked(
  path: string,
  realPath: string,
  fs: FsSeam,
  options: ReadOptions = {},
): Promise<FileSnapshot> {
  const snapshot = await readFileSnapshot(path, fs, options);
  if (snapshot.realPath !== realPath) throw new TargetMovedError();
  return snapshot;
}
