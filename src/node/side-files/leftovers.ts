// The names of the kit's own side files beside a target, and the clean-up of those a killed
// process left behind. Sweeping runs under the target's lock, which decides what is garbage
// whatever pid namespace left it: a temp file of anyone but this process belongs to a writer that
// held the lock before us and is dead, or lost it past the ceiling (removing its temp file then
// fails its rename rather than lose our write). A lock staging file belongs to a waiter, which holds no lock: its own
// record (pid, boot, namespace) says whether that waiter is dead.
import { basename, dirname, join } from 'node:path';
import { asHostError, errnoOf } from '../errors.js';
import { pidAlive } from '../lock/process-identity.js';
import type { FsSeam } from '../write/fs-seam.js';
import { randomHex } from '../write/random.js';
import { isTracked } from './side-file-registry.js';

export type SideFileKind = 'tmp' | 'lock-tmp';

const MARK = '.cursorhooks-';

/** The lock file beside a target: one per real target. */
export function lockPathOf(realPath: string): string {
  return `${realPath}${MARK}lock`;
}

/** A fresh, unique side-file name in the target's directory, stamped with this pid. */
export async function sideFileName(realPath: string, kind: SideFileKind): Promise<string> {
  const unique = `${process.pid}-${await randomHex(6)}`;
  return `${realPath}${MARK}${kind === 'tmp' ? '' : 'lock-'}${unique}.tmp`;
}

/** One of our side files: its kind and the pid its creator stamped on it. */
export interface SideFileName {
  readonly kind: SideFileKind;
  readonly pid: number;
}

/** Which of our side files for `base` a name is; undefined for any other name. */
export function sideFileOf(base: string, name: string): SideFileName | undefined {
  if (!name.startsWith(base + MARK)) return undefined;
  const match = /^(lock-)?(\d+)-[0-9a-f]{12}\.tmp$/.exec(name.slice(base.length + MARK.length));
  if (match === null) return undefined;
  return { kind: match[1] === undefined ? 'tmp' : 'lock-tmp', pid: Number(match[2]) };
}

/**
 * What the lock makes of a waiter's staging file from the record inside: garbage, kept, or
 * `unreadable` (a waiter killed between creating and writing it, or one writing it now).
 */
export type StagingJudge = (path: string) => Promise<'stale' | 'kept' | 'unreadable'>;

/**
 * Whether any of our side files (a lock, a staging or temp file, live or left by a killed
 * process) stands beside `realPath`: names only, one directory read.
 */
export async function hasSideFiles(realPath: string, fs: FsSeam): Promise<boolean> {
  const prefix = basename(realPath) + MARK;
  try {
    return (await fs.readdir(dirname(realPath))).some((name) => name.startsWith(prefix));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return false;
    throw asHostError(err);
  }
}

/**
 * Removes the side files of `realPath` that no live writer can still use: temp files this
 * process does not track, and staging files `judge` finds stale. An unreadable staging file has
 * only the pid in its name to go by: it goes when that pid is gone here (or is ours, untracked).
 * Removing one under a live writer would only fail that writer's link, never lose a write. Call
 * it holding the target's lock.
 */
export async function removeLeftovers(
  realPath: string,
  fs: FsSeam,
  judge: StagingJudge,
): Promise<void> {
  const base = basename(realPath);
  let names: string[];
  try {
    names = await fs.readdir(dirname(realPath));
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return;
    throw asHostError(err);
  }
  for (const name of names) {
    const side = sideFileOf(base, name);
    const path = join(dirname(realPath), name);
    if (side === undefined || isTracked(path)) continue;
    if (side.kind === 'lock-tmp') {
      const verdict = await judge(path);
      if (verdict === 'kept') continue;
      if (verdict === 'unreadable' && side.pid !== process.pid && pidAlive(side.pid)) continue;
    }
    await fs.unlink(path).catch((err: unknown) => {
      if (errnoOf(err) !== 'ENOENT') throw asHostError(err);
    });
  }
}
