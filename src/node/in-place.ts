// A write in place into the file our rename replaced (an editor that saves by truncate+write,
// VS Code's default, holding the old file open): the path no longer leads to those bytes, so
// only the file kept open from the compare can show them.
import { equalBytes } from './bytes.js';
import type { FsSeam } from './fs-seam.js';
import { type HeldFile, readBounded } from './read.js';

/**
 * The bytes written into `held` since it was compared equal to `compared`, or undefined if none.
 * Size and mtime show a write; ctime cannot, since our own rename (the unlink) moves it. A write
 * of the same size within one timestamp tick of the previous one stays unseen.
 */
export async function foreignWrite(
  held: HeldFile,
  compared: Uint8Array,
  fs: FsSeam,
): Promise<Uint8Array | undefined> {
  const now = await fs.fstat(held.handle);
  if (now.size === held.stats.size && now.mtimeMs === held.stats.mtimeMs) return undefined;
  const bytes = await readBounded(held.handle, now.size, fs);
  return equalBytes(bytes, compared) ? undefined : bytes;
}
