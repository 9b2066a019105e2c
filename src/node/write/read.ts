// Bounded, type-checked reading of a file the kit will edit. A symlink is followed (the caller
// keeps writing to the link's target, so the link survives); anything but a regular file is
// refused without blocking; an absent file is the empty document.
import type { Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, parse, sep } from 'node:path';
import { MAX_DOCUMENT_BYTES } from '../../limits.js';
import { aboutFile, asHostError, errnoOf, type FileRole, HostIOError } from '../errors.js';
import { FLAGS, type FsSeam, nodeFs } from './fs-seam.js';
import { sleep } from './sleep.js';

export interface FileSnapshot {
  /** The path as the host gave it. */
  readonly path: string;
  /** The file the path names after following every symlink: where writes go. */
  readonly realPath: string;
  readonly exists: boolean;
  /** The bytes read: empty when absent; at most MAX_DOCUMENT_BYTES + 1, so oversize shows. */
  readonly bytes: Uint8Array;
  /** Hard links to the file (1 unless it is shared); undefined when absent. */
  readonly links: number | undefined;
  /** Permission bits, owner and group; undefined when absent. */
  readonly mode: number | undefined;
  readonly uid: number | undefined;
  readonly gid: number | undefined;
}

// As many links as Linux follows before ELOOP.
const MAX_LINKS = 40;

/**
 * The real path of `path`, like `realpath -m`: the deepest existing ancestor is resolved and the
 * missing names appended, so the path stays the same once the writer creates the missing
 * directories (an ancestor symlink must not change the ledger key or the locked file). A
 * dangling symlink resolves to its missing target, so creating the file keeps the link a link.
 */
export async function resolveTarget(path: string, fs: FsSeam = nodeFs): Promise<string> {
  // Not path.resolve: it would fold `link/..` by text, where the kernel follows the link first.
  const absolute = isAbsolute(path) ? path : `${process.cwd()}${sep}${path}`;
  return resolveMissing(absolute, fs, { hops: 0 });
}

async function resolveMissing(path: string, fs: FsSeam, links: { hops: number }): Promise<string> {
  // The usual case, the file exists: the kernel resolves every link and `..` itself.
  const real = await realpathIfPresent(path, fs);
  if (real !== undefined) return real;
  // The next most usual, only the last name is missing (a lock, a temporary file, a first
  // ledger): its directory is resolved whole, and that name, known missing, is not looked up
  // again.
  const name = basename(path);
  const parent = dirname(path);
  if (name !== '.' && name !== '..' && parent !== path) {
    const realParent = await realpathIfPresent(parent, fs);
    if (realParent !== undefined) {
      return (await followDangling(realParent, name, fs, links)) ?? join(realParent, name);
    }
  }
  const root = parse(path).root;
  return walk(root, path.slice(root.length), fs, links);
}

/** The real path of `path`; undefined if some name in it is missing. */
async function realpathIfPresent(path: string, fs: FsSeam): Promise<string | undefined> {
  try {
    return await fs.realpath(path);
  } catch (err) {
    if (errnoOf(err) !== 'ENOENT') throw asHostError(err);
    return undefined;
  }
}

/**
 * `rest` resolved from the real directory `real` one name at a time, as the kernel does: `..`
 * leaves the directory a link led to, not the link's name. From the first missing name on,
 * what is left is appended (it cannot hold a link yet).
 */
async function walk(real: string, rest: string, fs: FsSeam, links: { hops: number }) {
  const names = rest.split(SEPARATORS);
  let current = real;
  for (const [i, name] of names.entries()) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, name);
    const found = await realpathIfPresent(next, fs);
    if (found !== undefined) {
      current = found;
      continue;
    }
    const followed = await followDangling(current, name, fs, links);
    if (followed === undefined) return join(next, ...names.slice(i + 1));
    current = followed;
  }
  return current;
}

/**
 * Where `name`, missing from the real directory `dir`, leads if it is a dangling symlink;
 * undefined if it is nothing at all.
 */
async function followDangling(
  dir: string,
  name: string,
  fs: FsSeam,
  links: { hops: number },
): Promise<string | undefined> {
  const link = await linkTarget(join(dir, name), fs);
  if (link === undefined) return undefined;
  if (++links.hops > MAX_LINKS) throw new HostIOError('io-failure', 'ELOOP');
  // A relative target is relative to the directory really holding the link, not to the path
  // that named it: under a symlinked ancestor (GNU stow) the two differ.
  return isAbsolute(link) ? resolveMissing(link, fs, links) : walk(dir, link, fs, links);
}

// Windows takes either slash; a POSIX name may hold a backslash.
const SEPARATORS = process.platform === 'win32' ? /[\\/]/ : /\//;

/** The target of `path` if it is a dangling symlink; undefined if it is none (or nothing). */
async function linkTarget(path: string, fs: FsSeam): Promise<string | undefined> {
  try {
    const stats = await fs.lstat(path);
    return stats.isSymbolicLink() ? await fs.readlink(path) : undefined;
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return undefined;
    throw asHostError(err);
  }
}

export interface ReadOptions {
  /**
   * How long to wait before reading an existing empty file a second time; default 100 ms. An
   * editor saving in place truncates first and writes after: planning on the empty moment
   * would replace the file and the editor's bytes would land in the replaced one. 0: no wait.
   */
  readonly emptySettleMs?: number;
  /** Given, a failure names this role and the path (the ledger reads with `'ledger'`). */
  readonly role?: FileRole;
}

const DEFAULT_EMPTY_SETTLE_MS = 100;

/**
 * Reads `path` (following symlinks) as a snapshot; never blocks on a FIFO or device. An
 * existing empty file stays `exists: true` and is read again after the settle delay.
 */
export async function readFileSnapshot(
  path: string,
  fs: FsSeam = nodeFs,
  options: ReadOptions = {},
): Promise<FileSnapshot> {
  try {
    const first = await readOnce(path, fs);
    const settleMs = options.emptySettleMs ?? DEFAULT_EMPTY_SETTLE_MS;
    if (!first.exists || first.bytes.length > 0 || settleMs <= 0) return first;
    await sleep(settleMs);
    return await readOnce(path, fs);
  } catch (err) {
    throw options.role === undefined ? err : aboutFile(err, options.role, path);
  }
}

async function readOnce(path: string, fs: FsSeam): Promise<FileSnapshot> {
  const { snapshot, held } = await openSnapshot(path, fs);
  if (held !== undefined) await fs.close(held.handle).catch(() => undefined);
  return snapshot;
}

type Handle = Awaited<ReturnType<FsSeam['open']>>;

/** The file a snapshot was read from, still open, and its fstat at the read. */
export interface HeldFile {
  readonly handle: Handle;
  readonly stats: Stats;
}

/**
 * A snapshot whose file stays open (`held`, undefined when absent): the writer re-checks that
 * very file after its rename, catching a write in place that the path no longer leads to. The
 * caller closes `held.handle`. No settle delay.
 */
export async function openSnapshot(
  path: string,
  fs: FsSeam = nodeFs,
): Promise<{ snapshot: FileSnapshot; held: HeldFile | undefined }> {
  const realPath = await resolveTarget(path, fs);
  const absent: FileSnapshot = {
    path,
    realPath,
    exists: false,
    bytes: new Uint8Array(0),
    links: undefined,
    mode: undefined,
    uid: undefined,
    gid: undefined,
  };
  let handle: Handle;
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting, and the
    // fstat below refuses it before any read.
    handle = await fs.open(realPath, FLAGS.read);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT') return { snapshot: absent, held: undefined };
    // ENXIO: a socket, or a FIFO the platform will not open without blocking.
    if (code === 'ENXIO' || code === 'EISDIR') throw new HostIOError('file-not-regular', code);
    throw asHostError(err);
  }
  try {
    const stats = await fs.fstat(handle);
    if (!stats.isFile()) throw new HostIOError('file-not-regular');
    const bytes = await readBounded(handle, stats.size, fs);
    const snapshot: FileSnapshot = {
      path,
      realPath,
      exists: true,
      bytes,
      links: stats.nlink,
      mode: stats.mode & 0o7777,
      uid: stats.uid,
      gid: stats.gid,
    };
    return { snapshot, held: { handle, stats } };
  } catch (err) {
    await fs.close(handle).catch(() => undefined);
    throw asHostError(err);
  }
}

/** Whether the file's owner may not write it (chmod 444): the user's "leave it as it is". */
export function isReadOnly(snapshot: Pick<FileSnapshot, 'mode'>): boolean {
  return snapshot.mode !== undefined && (snapshot.mode & 0o200) === 0;
}

/**
 * At most `cap` + 1 bytes (a document's cap unless given): enough to refuse an oversized file.
 * The buffer starts at the size fstat saw and grows once if the file grew since.
 */
export async function readBounded(
  handle: Handle,
  size: number,
  fs: FsSeam,
  cap = MAX_DOCUMENT_BYTES,
): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.min(size, cap) + 1);
  let length = 0;
  for (;;) {
    const read = await fs.read(handle, buffer, length, length);
    if (read === 0) break;
    length += read;
    if (length === buffer.length) {
      if (length > cap) break;
      const grown = new Uint8Array(cap + 1);
      grown.set(buffer);
      buffer = grown;
    }
  }
  return buffer.slice(0, length);
}
