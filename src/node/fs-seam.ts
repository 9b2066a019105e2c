// The one seam between the kit and the file system. Every call the kit makes goes through it, so
// tests can wrap it to inject failures (EACCES, ENOSPC…) or kill the process at any step;
// production code never holds a test switch.
// node:fs's callbacks, not node:fs/promises: that one loads readline and the fs watchers with it
// (12 built-in modules), a cost every status and install call paid before reading a byte.
// Named imports: a namespace import makes the CLI bundle copy every export of node:fs on each call.
import {
  close,
  constants,
  fchmod,
  fchown,
  fstat,
  fsync,
  link,
  lstat,
  mkdir,
  open,
  read,
  readdir,
  readlink,
  realpath,
  rename,
  rmdir,
  type Stats,
  unlink,
  write,
} from 'node:fs';
import { windowsRetrying } from './windows-retry.js';
import { asSystemError, loadXattrs, xattrsInstalled } from './xattr-native.js';

/** An open file, handed back to the seam's calls: only the seam reads its descriptor. */
export interface OpenFile {
  readonly fd: number;
}

export interface FsSeam {
  open(path: string, flags: number, mode?: number): Promise<OpenFile>;
  fstat(handle: OpenFile): Promise<Stats>;
  /** Reads into `buffer` from `offset`, at file position `position`; returns the bytes read. */
  read(handle: OpenFile, buffer: Uint8Array, offset: number, position: number): Promise<number>;
  /** Writes all of `bytes` at the current position. */
  write(handle: OpenFile, bytes: Uint8Array): Promise<void>;
  fchmod(handle: OpenFile, mode: number): Promise<void>;
  fchown(handle: OpenFile, uid: number, gid: number): Promise<void>;
  fsync(handle: OpenFile): Promise<void>;
  close(handle: OpenFile): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  link(existing: string, created: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Removes an empty directory (a probe's, after its files). */
  rmdir(path: string): Promise<void>;
  lstat(path: string): Promise<Stats>;
  realpath(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  mkdir(path: string, mode: number): Promise<void>;
  readdir(path: string): Promise<string[]>;
  /** Extended-attribute names (POSIX ACLs among them on Linux); undefined where Node cannot see them. */
  listXattrs(path: string): Promise<string[] | undefined>;
  /** Whether the attribute calls can work here at all, known without loading them. */
  xattrsInstalled(): Promise<boolean>;
  /** An attribute's value; undefined if the file has no such attribute. */
  getXattr(path: string, name: string): Promise<Uint8Array | undefined>;
  setXattr(path: string, name: string, value: Uint8Array): Promise<void>;
  removeXattr(path: string, name: string): Promise<void>;
}

/** A node:fs call with a callback, as a promise. */
function settle<T>(call: (done: (err: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    call((err, value) => (err ? reject(err) : resolve(value)));
  });
}

const posixFs: FsSeam = {
  open: (path, flags, mode) =>
    settle<number>((done) => open(path, flags, mode, done)).then((fd) => ({ fd })),
  fstat: (handle) => settle((done) => fstat(handle.fd, done)),
  read: (handle, buffer, offset, position) =>
    settle((done) => read(handle.fd, buffer, offset, buffer.length - offset, position, done)),
  write: async (handle, bytes) => {
    // A write may write less than asked; loop until every byte is out.
    let written = 0;
    while (written < bytes.length) {
      written += await settle<number>((done) =>
        write(handle.fd, bytes, written, bytes.length - written, null, done),
      );
    }
  },
  fchmod: (handle, mode) => settle((done) => fchmod(handle.fd, mode, done)),
  fchown: (handle, uid, gid) => settle((done) => fchown(handle.fd, uid, gid, done)),
  fsync: (handle) => settle((done) => fsync(handle.fd, done)),
  close: (handle) => settle((done) => close(handle.fd, done)),
  rename: (from, to) => settle((done) => rename(from, to, done)),
  link: (existing, created) => settle((done) => link(existing, created, done)),
  unlink: (path) => settle((done) => unlink(path, done)),
  rmdir: (path) => settle((done) => rmdir(path, done)),
  lstat: (path) => settle((done) => lstat(path, done)),
  // The native realpath(3), as fs/promises' realpath is; plain realpath walks the path in JS.
  realpath: (path) => settle((done) => realpath.native(path, done)),
  readlink: (path) => settle((done) => readlink(path, done)),
  mkdir: async (path, mode) => {
    await settle((done) => mkdir(path, { recursive: true, mode }, done));
  },
  readdir: (path) => settle((done) => readdir(path, done)),
  xattrsInstalled: async () => xattrsInstalled(),
  listXattrs: async (path) => {
    const xattrs = await loadXattrs();
    return xattrs?.listAttributes(path).catch(rethrow);
  },
  getXattr: async (path, name) => {
    const value = await (await xattrsOrThrow()).getAttribute(path, name).catch(rethrow);
    return value ?? undefined;
  },
  setXattr: async (path, name, value) =>
    (await xattrsOrThrow()).setAttribute(path, name, value).catch(rethrow),
  removeXattr: async (path, name) =>
    (await xattrsOrThrow()).removeAttribute(path, name).catch(rethrow),
};

/** The real file system; on Windows, rename and unlink ride out transient sharing refusals. */
export const nodeFs: FsSeam = process.platform === 'win32' ? windowsRetrying(posixFs) : posixFs;

function rethrow(err: unknown): never {
  throw asSystemError(err);
}

/** Only listing may find the module absent; the other calls follow a successful listing. */
async function xattrsOrThrow(): Promise<NonNullable<Awaited<ReturnType<typeof loadXattrs>>>> {
  const xattrs = await loadXattrs();
  if (xattrs === undefined)
    throw Object.assign(new Error('extended attributes unavailable'), { code: 'ENOTSUP' });
  return xattrs;
}

/** Open flags the kit uses; O_NONBLOCK is 0 where the platform lacks it (Windows). */
export const FLAGS = {
  read: constants.O_RDONLY | (constants.O_NONBLOCK ?? 0),
  createExclusive: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  directory: constants.O_RDONLY,
} as const;
