// The one seam between the kit and the file system. Every call the kit makes goes through it, so
// tests can wrap it to inject failures (EACCES, ENOSPC…) or kill the process at any step;
// production code never holds a test switch.
// Each call is node:fs's callback form (nodeFs) or its synchronous form (blockingFs, the CLI's),
// never node:fs/promises: that one loads readline and the fs watchers with it (12 built-in
// modules), a cost every status and install call paid before reading a byte.
// Named imports: a namespace import makes the CLI bundle copy every export of node:fs on each call.
import {
  close,
  closeSync,
  constants,
  fchmod,
  fchmodSync,
  fchown,
  fchownSync,
  fstat,
  fstatSync,
  fsync,
  fsyncSync,
  link,
  linkSync,
  lstat,
  lstatSync,
  mkdir,
  mkdirSync,
  open,
  openSync,
  read,
  readdir,
  readdirSync,
  readlink,
  readlinkSync,
  readSync,
  realpath,
  realpathSync,
  rename,
  renameSync,
  rmdir,
  rmdirSync,
  type Stats,
  unlink,
  unlinkSync,
  write,
  writeSync,
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

/**
 * How the seam runs a node:fs call given both ways: its callback form, on libuv's thread pool,
 * or its synchronous form. Either way the caller gets a promise, and a failure rejects it.
 */
type Runner = <T>(
  withCallback: (...args: never[]) => void,
  synchronous: (...args: never[]) => T,
  ...args: unknown[]
) => Promise<T>;

const onThreadPool: Runner = (withCallback, _, ...args) =>
  new Promise((resolve, reject) => {
    (withCallback as (...args: unknown[]) => void)(...args, (err: Error | null, value: never) =>
      err ? reject(err) : resolve(value),
    );
  });

const blocking: Runner = (_, synchronous, ...args) => {
  try {
    return Promise.resolve((synchronous as (...args: unknown[]) => never)(...args));
  } catch (err) {
    return Promise.reject(err);
  }
};

/** Which node:fs call serves each seam call, run by `run`. */
function posixSeam(run: Runner): FsSeam {
  return {
    open: async (path, flags, mode) => ({
      fd: await run<number>(open, openSync, path, flags, mode),
    }),
    fstat: (handle) => run<Stats>(fstat, fstatSync, handle.fd),
    read: (handle, buffer, offset, position) =>
      run<number>(read, readSync, handle.fd, buffer, offset, buffer.length - offset, position),
    write: async (handle, bytes) => {
      // A write may write less than asked; loop until every byte is out.
      let written = 0;
      while (written < bytes.length) {
        written += await run<number>(
          write,
          writeSync,
          handle.fd,
          bytes,
          written,
          bytes.length - written,
          null,
        );
      }
    },
    fchmod: (handle, mode) => run<void>(fchmod, fchmodSync, handle.fd, mode),
    fchown: (handle, uid, gid) => run<void>(fchown, fchownSync, handle.fd, uid, gid),
    fsync: (handle) => run<void>(fsync, fsyncSync, handle.fd),
    close: (handle) => run<void>(close, closeSync, handle.fd),
    rename: (from, to) => run<void>(rename, renameSync, from, to),
    link: (existing, created) => run<void>(link, linkSync, existing, created),
    unlink: (path) => run<void>(unlink, unlinkSync, path),
    rmdir: (path) => run<void>(rmdir, rmdirSync, path),
    lstat: (path) => run<Stats>(lstat, lstatSync, path),
    // The native realpath(3), as fs/promises' realpath is; plain realpath walks the path in JS.
    realpath: (path) => run<string>(realpath.native, realpathSync.native, path),
    readlink: (path) => run<string>(readlink, readlinkSync, path),
    mkdir: async (path, mode) => {
      await run<string | undefined>(mkdir, mkdirSync, path, { recursive: true, mode });
    },
    readdir: (path) => run<string[]>(readdir, readdirSync, path),
    // The native module's calls are promises already.
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
}

// On Windows, rename and unlink ride out transient sharing refusals.
const forPlatform = (fs: FsSeam) => (process.platform === 'win32' ? windowsRetrying(fs) : fs);

/** The real file system, each call on libuv's thread pool: a host's event loop never waits on a disk. */
export const nodeFs: FsSeam = forPlatform(posixSeam(onThreadPool));

/**
 * The real file system, each call made synchronously: for a process that has nothing else to
 * run while a call waits (the CLI), where a short call spends more on the thread pool's round
 * trip than on the system call.
 */
export const blockingFs: FsSeam = forPlatform(posixSeam(blocking));

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
  /** The same, refusing (ELOOP) a symlink at the last name, where the platform has O_NOFOLLOW. */
  readNoFollow: constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0),
  createExclusive: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
  directory: constants.O_RDONLY,
} as const;
