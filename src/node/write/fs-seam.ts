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
import { beatHeldLocks } from '../lock/lease-beat.js';
import { blocking, FLAGS, onThreadPool, type Runner } from './fs-calls.js';
import { windowsRetrying } from './windows-retry.js';
import { asSystemError, loadXattrs, type XattrLoader, type XattrModule } from './xattr-native.js';

/** An open file, handed back to the seam's calls: only the seam reads its descriptor. */
export interface OpenFile {
  readonly fd: number;
}

export interface FsSeam extends XattrCalls {
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
}

/** The attribute calls: the native module's, which Node alone does not have. */
export interface XattrCalls {
  /** Whether the native module loaded here: the one answer status and writes both act on. */
  xattrsLoaded(): Promise<boolean>;
  /** Extended-attribute names (POSIX ACLs among them on Linux); fails where the module did not load. */
  listXattrs(path: string): Promise<string[]>;
  /** An attribute's value; undefined if the file has no such attribute. */
  getXattr(path: string, name: string): Promise<Uint8Array | undefined>;
  setXattr(path: string, name: string, value: Uint8Array): Promise<void>;
  removeXattr(path: string, name: string): Promise<void>;
}

export { FLAGS };

/**
 * Which node:fs call serves each seam call, run by `run`. Every call first gives the locks this
 * process holds their beat: a holder busy with calls back to back (the synchronous seam starves
 * the refresh timer) still refreshes its lease. The attribute calls are `xattrs`.
 */
function posixSeam(unbeaten: Runner, xattrs: XattrCalls): FsSeam {
  const run: Runner = (withCallback, synchronous, ...args) => {
    beatHeldLocks(unbeaten);
    return unbeaten(withCallback, synchronous, ...args);
  };
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
    ...xattrs,
  };
}

// On Windows, rename and unlink ride out transient sharing refusals.
const forPlatform = (fs: FsSeam) => (process.platform === 'win32' ? windowsRetrying(fs) : fs);

/** The real file system, each call on libuv's thread pool: a host's event loop never waits on a disk. */
export const nodeFs: FsSeam = forPlatform(posixSeam(onThreadPool, xattrSeam(loadXattrs, false)));

/**
 * The real file system, each call made synchronously: for a process that has nothing else to
 * run while a call waits (the CLI), where a short call spends more on the thread pool's round
 * trip than on the system call.
 */
export const blockingFs: FsSeam = forPlatform(posixSeam(blocking, xattrSeam(loadXattrs, true)));

/**
 * The attribute calls over the module `load` gives: its synchronous calls when `synchronous` (so
 * the CLI never starts libuv's thread pool for them), else its promise ones. Tests give a loader
 * of their own: an absent or broken module is then one seam away.
 */
export function xattrSeam(load: XattrLoader, synchronous: boolean): XattrCalls {
  const call = <T>(
    sync: (module: XattrModule) => T,
    async: (module: XattrModule) => Promise<T>,
  ): Promise<T> => {
    const module = load();
    // Only reached by a caller that skipped xattrsLoaded: a failure, never an empty answer.
    if (module === undefined) return Promise.reject(new Error('the xattr module did not load'));
    try {
      return synchronous ? Promise.resolve(sync(module)) : async(module).catch(rethrow);
    } catch (err) {
      return Promise.reject(asSystemError(err));
    }
  };
  return {
    xattrsLoaded: async () => load() !== undefined,
    listXattrs: (path) =>
      call(
        (m) => m.listAttributesSync(path),
        (m) => m.listAttributes(path),
      ),
    getXattr: async (path, name) =>
      (await call(
        (m) => m.getAttributeSync(path, name),
        (m) => m.getAttribute(path, name),
      )) ?? undefined,
    setXattr: (path, name, value) =>
      call(
        (m) => m.setAttributeSync(path, name, value),
        (m) => m.setAttribute(path, name, value),
      ),
    removeXattr: (path, name) =>
      call(
        (m) => m.removeAttributeSync(path, name),
        (m) => m.removeAttribute(path, name),
      ),
  };
}

function rethrow(err: unknown): never {
  throw asSystemError(err);
}
