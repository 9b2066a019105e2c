// The one seam between the kit and the file system. Every call the kit makes goes through it, so
// tests can wrap it to inject failures (EACCES, ENOSPC…) or kill the process at any step;
// production code never holds a test switch.
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as fs from 'node:fs/promises';
import { windowsRetrying } from './windows-retry.js';
import { asSystemError, loadXattrs, xattrsInstalled } from './xattr-native.js';

export interface FsSeam {
  open(path: string, flags: number, mode?: number): Promise<FileHandle>;
  fstat(handle: FileHandle): Promise<Stats>;
  /** Reads into `buffer` from `offset`, at file position `position`; returns the bytes read. */
  read(handle: FileHandle, buffer: Uint8Array, offset: number, position: number): Promise<number>;
  /** Writes all of `bytes` at the current position. */
  write(handle: FileHandle, bytes: Uint8Array): Promise<void>;
  fchmod(handle: FileHandle, mode: number): Promise<void>;
  fchown(handle: FileHandle, uid: number, gid: number): Promise<void>;
  fsync(handle: FileHandle): Promise<void>;
  close(handle: FileHandle): Promise<void>;
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

const posixFs: FsSeam = {
  open: (path, flags, mode) => fs.open(path, flags, mode),
  fstat: (handle) => handle.stat(),
  read: async (handle, buffer, offset, position) =>
    (await handle.read(buffer, offset, buffer.length - offset, position)).bytesRead,
  write: async (handle, bytes) => {
    // FileHandle.write may write less than asked; loop until every byte is out.
    let written = 0;
    while (written < bytes.length) {
      written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
    }
  },
  fchmod: (handle, mode) => handle.chmod(mode),
  fchown: (handle, uid, gid) => handle.chown(uid, gid),
  fsync: (handle) => handle.sync(),
  close: (handle) => handle.close(),
  rename: (from, to) => fs.rename(from, to),
  link: (existing, created) => fs.link(existing, created),
  unlink: (path) => fs.unlink(path),
  rmdir: (path) => fs.rmdir(path),
  lstat: (path) => fs.lstat(path),
  realpath: (path) => fs.realpath(path),
  readlink: (path) => fs.readlink(path),
  mkdir: async (path, mode) => {
    await fs.mkdir(path, { recursive: true, mode });
  },
  readdir: (path) => fs.readdir(path),
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
