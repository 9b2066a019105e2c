// Reading a file the kit only reads (a contract file, a record, a recording, a state file, a
// binding): a regular file or nothing, its size checked before a byte is read, never blocking on
// a FIFO or a device. Anyone who can write beside these files can plant a /dev/zero link or a
// FIFO there, so each read costs at most `maxBytes` and one non-blocking open.
import type { Stats } from 'node:fs';
import { asHostError, errnoOf, HostIOError } from '../errors.js';
import { FLAGS, type FsSeam } from './fs-seam.js';
import { readBounded } from './read.js';

export interface BoundedReadOptions {
  /** The largest file read; a larger one is refused `file-too-large` unread. */
  readonly maxBytes: number;
  /** Refuse (`file-is-link`) rather than follow a symlink at the last name. */
  readonly noFollow?: boolean;
}

export interface BoundedFile {
  readonly bytes: Uint8Array;
  readonly stats: Stats;
}

/** The file's bytes and fstat; undefined when nothing is there. */
export async function readBoundedFile(
  path: string,
  fs: FsSeam,
  options: BoundedReadOptions,
): Promise<BoundedFile | undefined> {
  // Checked first as well where the platform has no O_NOFOLLOW (Windows); the open's flag
  // catches a link swapped in after this look.
  if (options.noFollow === true && (await isLink(path, fs))) throw new HostIOError('file-is-link');
  let handle: Awaited<ReturnType<FsSeam['open']>>;
  try {
    handle = await fs.open(path, options.noFollow === true ? FLAGS.readNoFollow : FLAGS.read);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' && options.noFollow === true) throw new HostIOError('file-is-link', code);
    // ENXIO: a socket, or a FIFO the platform will not open without blocking.
    if (code === 'ENXIO' || code === 'EISDIR') throw new HostIOError('file-not-regular', code);
    throw asHostError(err);
  }
  try {
    const stats = await fs.fstat(handle);
    if (!stats.isFile()) throw new HostIOError('file-not-regular');
    if (stats.size > options.maxBytes) throw new HostIOError('file-too-large');
    const bytes = await readBounded(handle, stats.size, fs, options.maxBytes);
    // Grown since the fstat: still no more than the cap was read.
    if (bytes.length > options.maxBytes) throw new HostIOError('file-too-large');
    return { bytes, stats };
  } catch (err) {
    throw asHostError(err);
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}

async function isLink(path: string, fs: FsSeam): Promise<boolean> {
  try {
    return (await fs.lstat(path)).isSymbolicLink();
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return false;
    throw asHostError(err);
  }
}
